"""Small async interfaces between the service and the world, in domain types."""
