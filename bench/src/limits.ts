import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { channelCredentialsOf, type GrpcTransport, healthClient, startGrpcServer } from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles } from "@auth/grpc-kit/dev-pki";
import { owaspMinimum } from "@auth/identity/passwords";
import { freePort } from "@auth/runtime";
import { hash, verify } from "@node-rs/argon2";
import { pino } from "pino";
import { httpLoad } from "./http-load.js";
import { median } from "./ratios.js";

/** Milliseconds of one argon2id verification with the configured parameters, and the logins per second the cores allow. */
export async function hashLimit(): Promise<{ hashMs: number; cores: number; loginsPerSecond: number }> {
  const stored = await hash("benchmark-password", { ...owaspMinimum, algorithm: 2 });
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

/**
 * CPU microseconds, client and server together in this process, of one small unary gRPC call (the
 * standard health check) on an open channel, and of opening a channel and making its first call,
 * in plain text and over mutual TLS, taken in turns so that the machine's drift falls on both:
 * what TLS adds to the calls between the processes.
 */
export async function transportCost() {
  const pki = await ensureDevPki(join(mkdtempSync(join(tmpdir(), "bench-pki-")), "pki"), [
    "session",
    "gateway",
  ]);
  const logger = pino({ level: "silent" });
  const transports = {
    plaintext: { server: { kind: "plaintext" }, client: { kind: "plaintext" } },
    mtls: { server: mtlsTransport(pki.session as TlsFiles), client: mtlsTransport(pki.gateway as TlsFiles) },
  } as const satisfies Record<string, { server: GrpcTransport; client: GrpcTransport }>;
  type Kind = keyof typeof transports;
  const samples = {
    call: { plaintext: [] as number[], mtls: [] as number[] },
    connect: { plaintext: [] as number[], mtls: [] as number[] },
  };
  const cpuUs = async (times: number, work: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / times;
  };
  const calls = 10_000;
  const channels = 200;
  for (let round = 0; round < 6; round += 1) {
    for (const kind of (round % 2 === 0 ? ["plaintext", "mtls"] : ["mtls", "plaintext"]) as Kind[]) {
      const server = await startGrpcServer({
        host: "127.0.0.1",
        port: 0,
        transport: transports[kind].server,
        logger,
        services: [],
      });
      const address = `127.0.0.1:${server.port}`;
      const channel = () => healthClient(address, channelCredentialsOf(transports[kind].client, "session"));
      const client = channel();
      await client.check("", 5_000);
      samples.call[kind].push(
        await cpuUs(calls, async () => {
          for (let sent = 0; sent < calls; sent += 32) {
            await Promise.all(Array.from({ length: 32 }, () => client.check("", 5_000)));
          }
        }),
      );
      client.close();
      samples.connect[kind].push(
        await cpuUs(channels, async () => {
          for (let opened = 0; opened < channels; opened += 1) {
            const fresh = channel();
            await fresh.check("", 5_000);
            fresh.close();
          }
        }),
      );
      await server.stop(100);
    }
  }
  return {
    callUs: { plaintext: median(samples.call.plaintext), mtls: median(samples.call.mtls) },
    connectUs: { plaintext: median(samples.connect.plaintext), mtls: median(samples.connect.mtls) },
  };
}
