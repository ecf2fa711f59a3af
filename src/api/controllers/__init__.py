"""One Litestar controller per resource."""
