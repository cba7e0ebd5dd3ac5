"""The multiplayer track's harness side: `harness match`, match records and their replay."""
