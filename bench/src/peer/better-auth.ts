import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { owaspMinimum, PasswordHasher } from "@auth/identity/passwords";
import { createLogger, reportListening, stopOnSignals } from "@auth/runtime";

// better-auth's e-mail and password sign-in, from the install PEER_DIR names, on its own
// PostgreSQL database (DATABASE_URL), with the product's argon2id (docs/performance.md, "Against a
// skeleton and better-auth"). GET /bench/statements answers the SQL statements sent so far.
const peerDir = process.env.PEER_DIR ?? "";
const require = createRequire(join(peerDir, "package.json"));
// biome-ignore lint/suspicious/noExplicitAny: better-auth and pg are the peer's, loaded at run time without their types.
const load = (name: string): Promise<any> => import(pathToFileURL(require.resolve(name)).href);
const { betterAuth } = await load("better-auth");
const { toNodeHandler } = await load("better-auth/node");
const { getMigrations } = await load("better-auth/db/migration");
const pg = (await load("pg")).default;

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  statements += 1;
  return query.apply(this, args);
};

const hasher = new PasswordHasher(owaspMinimum);
const auth = betterAuth({
  database: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }),
  secret: randomBytes(32).toString("hex"),
  baseURL: "http://127.0.0.1",
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password: string) => hasher.hashPassword(password),
      verify: ({ hash, password }: { hash: string; password: string }) =>
        hasher.verifyPassword({ passwordHash: hash, passwordNfkc: true }, password),
    },
  },
  // Counted per address as the product's gateway counts, with limits out of the load's way (its
  // own rule for sign-ins, 3 in 10 s, too).
  rateLimit: {
    enabled: true,
    window: 60,
    max: 1_000_000_000,
    storage: "memory",
    customRules: { "/sign-in/email": { window: 60, max: 1_000_000_000 } },
  },
  logger: { level: "error" },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const users = Number(process.env.PEER_USERS ?? 200);
for (let start = 0; start < users; start += 10) {
  await Promise.all(
    Array.from({ length: Math.min(10, users - start) }, (_, offset) =>
      auth.api.signUpEmail({
        body: {
          email: `user-${start + offset}@bench.test`,
          password: `bench-password-${start + offset}`,
          name: `User ${start + offset}`,
        },
      }),
    ),
  );
}

const handler = toNodeHandler(auth);
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  if (request.url === "/bench/statements") response.end(String(statements));
  else handler(request, response);
});
server.listen(0, "127.0.0.1", () => reportListening({ port: (server.address() as { port: number }).port }));
stopOnSignals(createLogger("better-auth", "warn")).stopWith(async () => {
  await new Promise((resolve) => server.close(resolve));
});
