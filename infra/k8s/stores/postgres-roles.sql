-- Least privilege in PostgreSQL (docs/operations.md): each PostgreSQL service logs in as a role of
-- its own, which owns its own database (so it may migrate it) and nothing else, and no other role
-- may connect to that database. Safe to run again; a run sets the passwords it is given.
--   psql -v ON_ERROR_STOP=1 -v identity_password=... -v disclaimer_password=... -v audit_password=... \
--     -f postgres-roles.sql
-- compose runs it at the first start of its PostgreSQL; on Kubernetes the store-users Job does.

SELECT 'CREATE ROLE auth_identity LOGIN'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'auth_identity')\gexec
ALTER ROLE auth_identity WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'identity_password';
SELECT 'CREATE DATABASE auth_identity OWNER auth_identity'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'auth_identity')\gexec
ALTER DATABASE auth_identity OWNER TO auth_identity;
REVOKE ALL ON DATABASE auth_identity FROM PUBLIC;

SELECT 'CREATE ROLE auth_disclaimer LOGIN'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'auth_disclaimer')\gexec
ALTER ROLE auth_disclaimer WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'disclaimer_password';
SELECT 'CREATE DATABASE auth_disclaimer OWNER auth_disclaimer'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'auth_disclaimer')\gexec
ALTER DATABASE auth_disclaimer OWNER TO auth_disclaimer;
REVOKE ALL ON DATABASE auth_disclaimer FROM PUBLIC;

SELECT 'CREATE ROLE auth_audit LOGIN'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'auth_audit')\gexec
ALTER ROLE auth_audit WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'audit_password';
SELECT 'CREATE DATABASE auth_audit OWNER auth_audit'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'auth_audit')\gexec
ALTER DATABASE auth_audit OWNER TO auth_audit;
REVOKE ALL ON DATABASE auth_audit FROM PUBLIC;
