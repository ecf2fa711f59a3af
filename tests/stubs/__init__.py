"""Stand-ins for servers memlane talks to, run by the tests on the loopback."""
