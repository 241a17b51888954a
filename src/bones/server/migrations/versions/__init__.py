"""One module per revision of the schema, oldest first."""
