import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { AuthError } from "@auth/errors";
import { tcpGate, testBudgets } from "@auth/testing";
import { sql } from "drizzle-orm";
import { pgTable, text } from "drizzle-orm/pg-core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase, openServiceDatabase } from "./database.js";
import { isDeadlock, isUniqueViolation, translateDatabaseError } from "./errors.js";
import { createTestDatabase, databaseKinds } from "./testing.js";

const items = pgTable("items", { id: text("id").primaryKey() });
const schema = { items };
const migrationsFolder = fileURLToPath(new URL("../test/migrations", import.meta.url));

describe.each(databaseKinds())("a database on $name", (kind) => {
  it("is migrated when opened, and tells a unique violation", {
    timeout: testBudgets.pgliteOpenMs,
  }, async () => {
    const database = await kind.open({ schema, migrationsFolder });
    try {
      await database.db.insert(items).values({ id: "a" });
      const error = await database.db
        .insert(items)
        .values({ id: "a" })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(error)).toBe(true);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("replicas starting together on PostgreSQL", () => {
  it("apply the migrations once, one at a time", async () => {
    const target = await createTestDatabase(process.env.TEST_DATABASE_URL ?? "");
    try {
      const replicas = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ url: target.url, schema, migrationsFolder })),
      );
      await replicas[0]?.db.insert(items).values({ id: "x" });
      expect(await replicas[1]?.db.select().from(items)).toEqual([{ id: "x" }]);
      await Promise.all(replicas.map((replica) => replica.close()));
    } finally {
      await target.drop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("two transactions that wait on each other's rows", () => {
  it("deadlock: PostgreSQL aborts one, which isDeadlock tells, and the other commits", async () => {
    const target = await createTestDatabase(process.env.TEST_DATABASE_URL ?? "");
    const database = await openDatabase({ url: target.url, schema, migrationsFolder });
    try {
      let holding = 0;
      const bothHoldOne = async () => {
        holding += 1;
        while (holding < 2) await sleep(10);
      };
      const crossing = (first: string, second: string) =>
        database.db.transaction(async (tx) => {
          await tx.insert(items).values({ id: first });
          await bothHoldOne();
          await tx.insert(items).values({ id: second });
        });
      const outcomes = await Promise.allSettled([crossing("a", "b"), crossing("b", "a")]);
      const aborted = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
      expect(aborted).toHaveLength(1);
      expect(isDeadlock(aborted[0])).toBe(true);
      expect(isUniqueViolation(aborted[0])).toBe(false);
      expect((await database.db.select().from(items)).map((item) => item.id).sort()).toEqual(["a", "b"]);
    } finally {
      await database.close();
      await target.drop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  "a service's database opened while PostgreSQL is unreachable",
  () => {
    const failures: Array<{ msg: string; store?: string; attempt?: number; error?: string }> = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => failures.push(JSON.parse(line)) });

    it.each(["closed", "frozen"] as const)(
      "keeps trying while its port is %s, naming the server and not the user, and is migrated once PostgreSQL answers",
      { timeout: testBudgets.testMs },
      async (state) => {
        failures.length = 0;
        const target = await createTestDatabase(process.env.TEST_DATABASE_URL ?? "");
        const server = new URL(target.url);
        const gate = await tcpGate({ host: server.hostname, port: Number(server.port || 5432) });
        if (state === "frozen") await gate.open("frozen");
        const behindGate = new URL(target.url);
        behindGate.port = String(gate.port);
        // 2 s an attempt: on a loaded machine a closed port's refusal may come after a shorter timer.
        const database = await openServiceDatabase({
          url: behindGate.toString(),
          schema,
          migrationsFolder,
          retry: { attemptTimeoutMs: 2_000, maxDelayMs: 50 },
          logger,
        });
        try {
          await expect.poll(() => failures.length, { timeout: testBudgets.testMs }).toBeGreaterThanOrEqual(2);
          expect(failures[0]).toMatchObject({
            msg: "store not reached, retrying",
            store: `postgres 127.0.0.1:${gate.port}`,
            attempt: 1,
            error:
              state === "closed"
                ? expect.stringContaining("ECONNREFUSED")
                : "Operation timed out after 2000ms",
          });
          expect(JSON.stringify(failures)).not.toContain(server.username);

          await gate.open("through");
          await database.ready;
          await database.db.insert(items).values({ id: "a" });
          expect(await database.db.select().from(items)).toEqual([{ id: "a" }]);
        } finally {
          await database.close();
          await gate.close();
          await target.drop();
        }
      },
    );
  },
);

describe("database errors", () => {
  it("are service.unavailable when the database cannot be reached", async () => {
    const error = await openDatabase({
      url: "postgres://nobody@127.0.0.1:1/none",
      schema,
      migrationsFolder,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const translated = translateDatabaseError(error);
    expect(translated).toBeInstanceOf(AuthError);
    expect(translated?.code).toBe("service.unavailable");
  });

  it("are service.unavailable when a query gets no answer in time (the server hangs)", () => {
    const hung = Object.assign(new Error("Failed query: select 1"), {
      cause: new Error("Query read timeout"),
    });
    expect(translateDatabaseError(hung)?.code).toBe("service.unavailable");
  });

  it("are service.unavailable when the statement timeout cancelled the query (the server was frozen or slow)", () => {
    const cancelled = Object.assign(new Error("Failed query: select 1"), {
      cause: Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }),
    });
    expect(translateDatabaseError(cancelled)?.code).toBe("service.unavailable");
  });

  it("are left alone when they mean something else", () => {
    expect(translateDatabaseError(new Error("syntax error"))).toBeUndefined();
    expect(isUniqueViolation(Object.assign(new Error("x"), { code: "23503" }))).toBe(false);
    expect(isDeadlock(Object.assign(new Error("x"), { code: "23505" }))).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("a connection that breaks while checked out", () => {
  it("fails the transaction's next statement, never the process, and the pool goes on", async () => {
    const target = await createTestDatabase(process.env.TEST_DATABASE_URL ?? "");
    const database = await openDatabase({ url: target.url, schema, migrationsFolder });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      const failed = await database.db
        .transaction(async (tx) => {
          // Another connection ends this one while the transaction awaits something else.
          const pid = sql`(SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = current_database())`;
          await tx.execute(sql`SELECT 1`);
          await database.db.execute(sql`SELECT pg_terminate_backend(${pid})`);
          await sleep(200);
          await tx.execute(sql`SELECT 1`);
        })
        .then(
          () => "committed",
          () => "failed",
        );
      expect(failed).toBe("failed");
      expect(uncaught).toEqual([]);
      await database.db.insert(items).values({ id: "after" });
    } finally {
      process.off("uncaughtException", record);
      await database.close();
      await target.drop();
    }
  });
});
