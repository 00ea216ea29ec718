export {
  type Database,
  databaseOptionsOf,
  databaseStartEnvironment,
  type OpenDatabaseOptions,
  type OpenedDatabase,
  openDatabase,
  openServiceDatabase,
  type ServiceDatabase,
  type ServiceDatabaseOptions,
} from "./database.js";
export { isDeadlock, isUniqueViolation, translateDatabaseError } from "./errors.js";
export { migrateDatabase } from "./migrate.js";
export { pgliteNodeArgs } from "./pglite.js";
