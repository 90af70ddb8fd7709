"""SQL schema and numbered migrations, shipped inside the package."""
