import { fileURLToPath } from "node:url";
import { Child } from "@auth/suite";
import type { BenchUser } from "../fixtures.js";
import type { LoadShape } from "../flows.js";
import { httpLoad, type LoadResult } from "../http-load.js";

export interface RunningPeer {
  url: string;
  processes: Array<{ name: string; pid: number | undefined }>;
  /** Sign-ins with e-mail and password, each user in turn. */
  signIns(shape: LoadShape): Promise<LoadResult>;
  /** SQL statements better-auth has sent so far. */
  statements(): Promise<number>;
  stop(): Promise<void>;
}

/** better-auth from `peerDir` in a node process of its own, its users seeded, on `databaseUrl`. */
export async function startPeer(peerDir: string, databaseUrl: string, userCount = 200): Promise<RunningPeer> {
  const tail: string[] = [];
  const child = new Child({
    name: "better-auth",
    entry: fileURLToPath(new URL("./better-auth.js", import.meta.url)),
    // The product's flags for a process that hashes (identity's).
    nodeArgs: ["--max-semi-space-size=2", "--max-old-space-size=128"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PEER_DIR: peerDir,
      DATABASE_URL: databaseUrl,
      PEER_USERS: String(userCount),
    },
    onLine: (_, line) => tail.push(line),
  });
  child.start();
  const { port } = await Promise.race([
    child.listening(),
    child.exited().then(() => {
      throw new Error(`better-auth exited while starting:\n${tail.slice(-30).join("\n")}`);
    }),
  ]);
  const url = `http://127.0.0.1:${port}`;
  const users: BenchUser[] = Array.from({ length: userCount }, (_, n) => ({
    loginName: `user-${n}@bench.test`,
    password: `bench-password-${n}`,
    phone: "",
  }));
  let next = 0;
  return {
    processes: [{ name: "better-auth", pid: child.pid }],
    url,
    signIns: (shape) =>
      httpLoad({
        url: `${url}/api/auth/sign-in/email`,
        connections: shape.connections,
        duration: shape.durationSeconds,
        requests: [
          {
            method: "POST",
            // better-auth refuses a sign-in without the Origin of a trusted site (its baseURL).
            headers: { "content-type": "application/json", origin: "http://127.0.0.1" },
            setupRequest: (request) => {
              const user = users[next++ % users.length] as BenchUser;
              return { ...request, body: JSON.stringify({ email: user.loginName, password: user.password }) };
            },
          },
        ],
      }),
    statements: async () => Number(await (await fetch(`${url}/bench/statements`)).text()),
    stop: () => child.stop(),
  };
}
