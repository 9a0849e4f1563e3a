"""Kit generators: each turns the validated database into scene pages for one component group."""
