-- Each PostgreSQL service has a database of its own; the services apply their migrations.
CREATE DATABASE auth_identity;
CREATE DATABASE auth_disclaimer;
