import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The SQL files drizzle-kit would add to bring the service's migrations in line with its schema:
 * empty when every schema change has its migration. Runs drizzle-kit on a copy of the folder.
 */
export function missingMigrations(
  serviceDir: string,
  schemaFile = "src/schema.ts",
  migrationsDir = "drizzle",
): string[] {
  const scratch = mkdtempSync(join(serviceDir, ".migrations-check-"));
  try {
    cpSync(join(serviceDir, migrationsDir), scratch, { recursive: true });
    const before = new Set(readdirSync(scratch));
    execFileSync(
      "npx",
      [
        "drizzle-kit",
        "generate",
        "--dialect",
        "postgresql",
        "--schema",
        schemaFile,
        "--out",
        relative(serviceDir, scratch),
      ],
      { cwd: serviceDir, stdio: "pipe" },
    );
    return readdirSync(scratch).filter((file) => file.endsWith(".sql") && !before.has(file));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
