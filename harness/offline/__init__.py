"""What is made from finished records: instruction pyramids, question sets, fine-tuning rows."""
