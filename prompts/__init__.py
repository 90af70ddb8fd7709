"""Every prompt the app sends, as editable text files."""
