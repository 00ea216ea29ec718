import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { freePort } from "@auth/runtime";
import { hash, verify } from "@node-rs/argon2";
import { httpLoad } from "./http-load.js";

/** The argon2id parameters the identity service hashes with (its defaults). */
const parameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Milliseconds of one argon2id verification with the configured parameters, and the logins per second the cores allow. */
export async function hashLimit(): Promise<{ hashMs: number; cores: number; loginsPerSecond: number }> {
  const stored = await hash("benchmark-password", { ...parameters, algorithm: 2 });
  const rounds = 30;
  await verify(stored, "benchmark-password");
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) await verify(stored, "benchmark-password");
  const hashMs = (performance.now() - started) / rounds;
  const cores = availableParallelism();
  return { hashMs, cores, loginsPerSecond: (cores * 1000) / hashMs };
}

/** A bare express handler answering identify's JSON, in a process of its own. */
const bareExpress = `
import express from "express";
const app = express();
app.disable("x-powered-by");
const body = { status: "success", session_token: "t".repeat(64), session_state: "checkpassword", disclaimers_required: [], captcha_required: false };
app.post("/:company/v2/auth/login", express.json(), (request, response) => response.json(body));
app.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\\n"));
`;

/** Requests per second a bare express handler answers with identify's JSON, under the same load. */
export async function expressLimit(options: {
  connections: number;
  durationSeconds: number;
}): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", bareExpress], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  try {
    const result = await httpLoad({
      url: `http://127.0.0.1:${port}/demo/v2/auth/login`,
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify({ login_id: "alice" }),
      connections: options.connections,
      duration: options.durationSeconds,
    });
    return result.rps;
  } finally {
    child.kill();
  }
}
