"""Navigation meshes: building, point location and exact shortest paths."""
