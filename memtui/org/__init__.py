"""Organisation memory on PostgreSQL (docs/organisation.md): the shared scopes `org`, `team:NAME` and
`person` as stores behind the Bank's store contract, enforced by the database's row-level security.

Nothing here is imported on the hook path; psycopg is imported on first use (pgconn.py).
"""
