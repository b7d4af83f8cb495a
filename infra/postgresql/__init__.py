"""Django's PostgreSQL backend with a pool that reconnects every second: psycopg_pool's
back-off doubles without bound (docs/decisions/postgresql-pool.md)."""
