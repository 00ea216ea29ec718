export { type Database, type OpenDatabaseOptions, type OpenedDatabase, openDatabase } from "./database.js";
export { isUniqueViolation, translateDatabaseError } from "./errors.js";
export { migrateDatabase } from "./migrate.js";
