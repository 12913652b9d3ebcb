// Filled in by the database test setup.
