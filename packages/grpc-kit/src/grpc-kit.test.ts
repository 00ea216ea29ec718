import { createRequire } from "node:module";
import { type AddressInfo, createServer } from "node:net";
import { dirname, join } from "node:path";
import { AuthError } from "@auth/errors";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { type ChannelCredentials, type ChannelOptions, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  channelCredentialsOf,
  checkHealth,
  createServiceClient,
  type GrpcTransport,
  livenessName,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
  unanswered,
} from "./index.js";
import { disclaimerServiceName, silent, startDisclaimerServer, testPki } from "./test-servers.testing.js";

let transports: Record<string, GrpcTransport>;
let server: RunningGrpcServer;
let address: string;
let client: ServiceClient<typeof DisclaimerServiceService>;

const gatewayClient = (target: string, deadlineMs = 2_000) =>
  createServiceClient(DisclaimerServiceService, target, {
    deadlineMs,
    transport: transports.gateway as GrpcTransport,
    server: "disclaimer",
  });

beforeAll(async () => {
  transports = await testPki(["disclaimer", "gateway", "operator"]);
  server = await startDisclaimerServer({
    transport: transports.disclaimer as GrpcTransport,
    healthPort: 0,
    reflection: true,
    methods: {
      listRequiredDisclaimers: async (request) => ({
        disclaimers: [
          { code: request.userId, title: "t", description: "d", link: "l", version: 1, active: true },
        ],
      }),
      acceptDisclaimers: async (request) => {
        if (request.userId === "slow down")
          throw new AuthError("request.ratelimit.exceeded", { retryAfterSeconds: 7, detail: "slow down" });
        throw new Error("connection to db://admin:hunter2@db failed");
      },
    },
  });
  address = `127.0.0.1:${server.port}`;
  client = gatewayClient(address);
});

afterAll(async () => {
  client?.close();
  await server?.stop(100);
});

describe("a unary call", () => {
  it("returns the handler's response", async () => {
    const response = await client.listRequiredDisclaimers({ companyId: "c", userId: "u-1" });
    expect(response.disclaimers.map((d) => d.code)).toEqual(["u-1"]);
  });

  it("carries the handler's error code and Retry-After to the caller", async () => {
    const error = await client
      .acceptDisclaimers({ companyId: "c", userId: "slow down", codes: [], clientAddress: "" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe("request.ratelimit.exceeded");
    expect(error.retryAfterSeconds).toBe(7);
  });

  it("turns an unexpected failure into internal.error without its message", async () => {
    const error = await client
      .acceptDisclaimers({ companyId: "c", userId: "u", codes: [], clientAddress: "" })
      .catch((e) => e);
    expect(error.code).toBe("internal.error");
    expect(String(error.message)).not.toContain("hunter2");
  });
});

describe("a server that cannot be reached", () => {
  it("makes the call fail with service.unavailable at once, not at the deadline", async () => {
    // A deadline far past the test's own time: only a failure on the refused connection ends the call.
    const unreachable = gatewayClient("127.0.0.1:1", 24 * 60 * 60_000);
    const error = await unreachable.listRequiredDisclaimers({ companyId: "c", userId: "u" }).catch((e) => e);
    unreachable.close();
    expect(error.code).toBe("service.unavailable");
    expect(unanswered(error)).toBe("unreachable");
  });

  it("tells a server that took the connection but did not answer before the deadline", async () => {
    // Accepts the connection and says nothing: no HTTP/2 settings, no answer.
    const silentPeer = createServer(() => {});
    await new Promise<void>((resolve) => silentPeer.listen(0, "127.0.0.1", resolve));
    const mute = gatewayClient(`127.0.0.1:${(silentPeer.address() as AddressInfo).port}`, 300);
    const error = await mute.listRequiredDisclaimers({ companyId: "c", userId: "u" }).catch((e) => e);
    mute.close();
    silentPeer.close();
    expect(error.code).toBe("service.unavailable");
    expect(unanswered(error)).toBe("deadline");
  });
});

describe("the health checking protocol", () => {
  it("reports the server and each hosted service as SERVING on the TLS port, to a caller with a certificate", async () => {
    const channel = channelCredentialsOf(transports.gateway as GrpcTransport, "disclaimer");
    expect(await checkHealth(address, "", 5_000, channel)).toBe("SERVING");
    expect(await checkHealth(address, disclaimerServiceName, 5_000, channel)).toBe("SERVING");
  });

  it("answers in plain text on the health-only port, for probes that speak no TLS", async () => {
    expect(await checkHealth(`127.0.0.1:${server.healthPort}`, "", 5_000)).toBe("SERVING");
    expect(await checkHealth(`127.0.0.1:${server.healthPort}`, disclaimerServiceName, 5_000)).toBe("SERVING");
  });

  it("reports UNKNOWN for a server that does not answer", async () => {
    expect(await checkHealth("127.0.0.1:1", "", 300)).toBe("UNKNOWN");
  });
});

/** The names of the services a server's reflection lists. */
async function reflectedServices(
  target: string,
  channel: { credentials: ChannelCredentials; options: ChannelOptions },
) {
  const reflectionDir = dirname(createRequire(import.meta.url).resolve("@grpc/reflection"));
  const definition = loadSync("grpc/reflection/v1/reflection.proto", {
    includeDirs: [join(reflectionDir, "..", "proto")],
  });
  // biome-ignore lint/suspicious/noExplicitAny: proto-loader's dynamic package tree.
  const loaded = loadPackageDefinition(definition) as any;
  const reflection = new loaded.grpc.reflection.v1.ServerReflection(
    target,
    channel.credentials,
    channel.options,
  );
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const stream = reflection.ServerReflectionInfo();
      stream.on("data", (response: { listServicesResponse: { service: Array<{ name: string }> } }) => {
        resolve(response.listServicesResponse.service.map((s) => s.name));
        stream.end();
      });
      stream.on("error", reject);
      stream.write({ listServices: "" });
    });
  } finally {
    reflection.close();
  }
}

describe("a server whose store is not reached yet", () => {
  const listRequired = (target: string) =>
    gatewayClient(target).listRequiredDisclaimers({ companyId: "c", userId: "u" });

  it("listens at once, reports NOT_SERVING and answers every call UNAVAILABLE, then serves once the store answers", async () => {
    let storeAnswered: () => void = () => {};
    const waiting = await startDisclaimerServer({
      transport: transports.disclaimer as GrpcTransport,
      healthPort: 0,
      methods: { listRequiredDisclaimers: async () => ({ disclaimers: [] }) },
      ready: new Promise<void>((resolve) => {
        storeAnswered = resolve;
      }),
    });
    const target = `127.0.0.1:${waiting.port}`;
    const probe = `127.0.0.1:${waiting.healthPort}`;
    try {
      for (const name of ["", disclaimerServiceName]) {
        expect(await checkHealth(probe, name, 5_000)).toBe("NOT_SERVING");
      }
      // A liveness probe still sees a process that runs.
      expect(await checkHealth(probe, livenessName, 5_000)).toBe("SERVING");
      const refused = await listRequired(target).catch((e) => e);
      expect(refused).toBeInstanceOf(AuthError);
      expect(refused.code).toBe("service.unavailable");
      // The service answered: it was reached.
      expect(unanswered(refused)).toBeUndefined();

      storeAnswered();
      await expect.poll(() => checkHealth(probe, "", 5_000)).toBe("SERVING");
      expect(await checkHealth(probe, disclaimerServiceName, 5_000)).toBe("SERVING");
      await expect(listRequired(target)).resolves.toEqual({ disclaimers: [] });
    } finally {
      await waiting.stop(100);
    }
  });

  it("stays NOT_SERVING when stopped before the store answered", async () => {
    let storeAnswered: () => void = () => {};
    const waiting = await startDisclaimerServer({
      transport: transports.disclaimer as GrpcTransport,
      healthPort: 0,
      methods: {},
      ready: new Promise<void>((resolve) => {
        storeAnswered = resolve;
      }),
    });
    const stopped = waiting.stop(5_000);
    storeAnswered();
    expect(await checkHealth(`127.0.0.1:${waiting.healthPort}`, "", 1_000)).not.toBe("SERVING");
    await stopped;
  });
});

describe('a server told of each answer that may have written (a relay woken: docs/operations.md, "Security events")', () => {
  it("calls onAnswered after each answer of a method that may write, whether it succeeded or failed, and never after a read's", async () => {
    const answered: string[] = [];
    const told = await startDisclaimerServer({
      transport: transports.disclaimer as GrpcTransport,
      methods: {
        listRequiredDisclaimers: async () => {
          answered.push("read");
          return { disclaimers: [] };
        },
        acceptDisclaimers: async (request) => {
          answered.push("accept");
          if (request.userId === "refused")
            throw new AuthError("request.ratelimit.exceeded", { detail: "slow down" });
          return { missing: [] };
        },
      },
      onAnswered: () => answered.push("told"),
    });
    const target = gatewayClient(`127.0.0.1:${told.port}`);
    const accept = (userId: string) =>
      target.acceptDisclaimers({ companyId: "c", userId, codes: ["a"], clientAddress: "" });
    try {
      await target.listRequiredDisclaimers({ companyId: "c", userId: "u" });
      await accept("u");
      await expect(accept("refused")).rejects.toThrow();
      expect(answered).toEqual(["read", "accept", "told", "accept", "told"]);
    } finally {
      target.close();
      await told.stop(100);
    }
  });
});

describe("server reflection", () => {
  it("lists the hosted services when asked for", async () => {
    const channel = channelCredentialsOf(transports.gateway as GrpcTransport, "disclaimer");
    expect(await reflectedServices(address, channel)).toContain(disclaimerServiceName);
  });

  it("is not served unless asked for", async () => {
    const quiet = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: transports.disclaimer as GrpcTransport,
      logger: silent,
      services: [],
    });
    const channel = channelCredentialsOf(transports.gateway as GrpcTransport, "disclaimer");
    const error = await reflectedServices(`127.0.0.1:${quiet.port}`, channel).catch((e) => e);
    expect(error.code).toBe(12); // UNIMPLEMENTED
    await quiet.stop(100);
  });
});

describe("stopping", () => {
  it("reports NOT_SERVING while draining, then refuses calls", async () => {
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const callArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const slow = await startDisclaimerServer({
      transport: transports.disclaimer as GrpcTransport,
      methods: {
        listRequiredDisclaimers: () =>
          new Promise((resolve) => {
            release = () => resolve({ disclaimers: [] });
            arrived();
          }),
      },
    });
    const slowClient = gatewayClient(`127.0.0.1:${slow.port}`, 5_000);
    const inFlight = slowClient.listRequiredDisclaimers({ companyId: "c", userId: "u" });
    await callArrived;
    const stopped = slow.stop(5_000);
    release();
    await expect(inFlight).resolves.toEqual({ disclaimers: [] });
    await stopped;
    const error = await slowClient.listRequiredDisclaimers({ companyId: "c", userId: "u" }).catch((e) => e);
    expect(error.code).toBe("service.unavailable");
    slowClient.close();
  });
});
