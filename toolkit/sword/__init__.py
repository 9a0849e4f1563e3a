"""sword-duel (spec 002): the technique data format, its loading, validation and design linter."""
