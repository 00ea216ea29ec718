import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AuthError } from "@auth/errors";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { ChannelCredentials, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AsyncService,
  checkHealth,
  createServiceClient,
  implement,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "./index.js";

const logger = pino({ level: "silent" });

const unused = async (): Promise<never> => {
  throw new Error("not called in this test");
};

/** The disclaimer service's methods as a test needs them; the rest are never called. */
function disclaimerMethods(
  methods: Partial<AsyncService<typeof DisclaimerServiceService>>,
): AsyncService<typeof DisclaimerServiceService> {
  return {
    createDisclaimer: unused,
    publishDisclaimerVersion: unused,
    deactivateDisclaimer: unused,
    listDisclaimers: unused,
    listAcceptances: unused,
    listRequiredDisclaimers: unused,
    acceptDisclaimers: unused,
    ...methods,
  };
}
const serviceName = "auth.disclaimer.v1.DisclaimerService";

let server: RunningGrpcServer;
let address: string;
let client: ServiceClient<typeof DisclaimerServiceService>;

beforeAll(async () => {
  const implementation = implement(
    DisclaimerServiceService,
    disclaimerMethods({
      listRequiredDisclaimers: async (request) => ({
        disclaimers: [
          { code: request.userId, title: "t", description: "d", link: "l", version: 1, active: true },
        ],
      }),
      acceptDisclaimers: async () => {
        throw new AuthError("request.ratelimit.exceeded", { retryAfterSeconds: 7, detail: "slow down" });
      },
      createDisclaimer: async () => {
        throw new Error("connection to db://admin:hunter2@db failed");
      },
    }),
    { logger },
  );
  server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    logger,
    services: [{ name: serviceName, definition: DisclaimerServiceService, implementation }],
  });
  address = `127.0.0.1:${server.port}`;
  client = createServiceClient(DisclaimerServiceService, address, { deadlineMs: 2_000 });
});

afterAll(async () => {
  client.close();
  await server.stop(100);
});

describe("a unary call", () => {
  it("returns the handler's response", async () => {
    const response = await client.listRequiredDisclaimers({ companyId: "c", userId: "u-1" });
    expect(response.disclaimers.map((d) => d.code)).toEqual(["u-1"]);
  });

  it("carries the handler's error code and Retry-After to the caller", async () => {
    const error = await client
      .acceptDisclaimers({ companyId: "c", userId: "u", codes: [], clientAddress: "" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe("request.ratelimit.exceeded");
    expect(error.retryAfterSeconds).toBe(7);
  });

  it("turns an unexpected failure into internal.error without its message", async () => {
    const error = await client
      .createDisclaimer({ companyId: "c", code: "x", title: "", description: "", link: "" })
      .catch((e) => e);
    expect(error.code).toBe("internal.error");
    expect(String(error.message)).not.toContain("hunter2");
  });
});

describe("a server that cannot be reached", () => {
  it("makes the call fail with service.unavailable at once, not at the deadline", async () => {
    // A deadline far past the test's own time: only a failure on the refused connection ends the call.
    const unreachable = createServiceClient(DisclaimerServiceService, "127.0.0.1:1", {
      deadlineMs: 24 * 60 * 60_000,
    });
    const error = await unreachable.listRequiredDisclaimers({ companyId: "c", userId: "u" }).catch((e) => e);
    unreachable.close();
    expect(error.code).toBe("service.unavailable");
  });
});

describe("the health checking protocol", () => {
  it("reports the server and each hosted service as SERVING", async () => {
    expect(await checkHealth(address)).toBe("SERVING");
    expect(await checkHealth(address, serviceName)).toBe("SERVING");
  });

  it("reports UNKNOWN for a server that does not answer", async () => {
    expect(await checkHealth("127.0.0.1:1", "", 300)).toBe("UNKNOWN");
  });
});

describe("server reflection", () => {
  it("lists the hosted services", async () => {
    const reflectionDir = dirname(createRequire(import.meta.url).resolve("@grpc/reflection"));
    const definition = loadSync("grpc/reflection/v1/reflection.proto", {
      includeDirs: [join(reflectionDir, "..", "proto")],
    });
    // biome-ignore lint/suspicious/noExplicitAny: proto-loader's dynamic package tree.
    const loaded = loadPackageDefinition(definition) as any;
    const reflection = new loaded.grpc.reflection.v1.ServerReflection(
      address,
      ChannelCredentials.createInsecure(),
    );
    const services = await new Promise<string[]>((resolve, reject) => {
      const stream = reflection.ServerReflectionInfo();
      stream.on("data", (response: { listServicesResponse: { service: Array<{ name: string }> } }) => {
        resolve(response.listServicesResponse.service.map((s) => s.name));
        stream.end();
      });
      stream.on("error", reject);
      stream.write({ listServices: "" });
    });
    reflection.close();
    expect(services).toContain(serviceName);
  });
});

describe("stopping", () => {
  it("reports NOT_SERVING while draining, then refuses calls", async () => {
    const logger2 = pino({ level: "silent" });
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const callArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const slow = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      logger: logger2,
      services: [
        {
          name: serviceName,
          definition: DisclaimerServiceService,
          implementation: implement(
            DisclaimerServiceService,
            disclaimerMethods({
              listRequiredDisclaimers: () =>
                new Promise((resolve) => {
                  release = () => resolve({ disclaimers: [] });
                  arrived();
                }),
              acceptDisclaimers: async () => ({ missing: [], acceptedAt: new Date() }),
              createDisclaimer: async () => ({}),
            }),
            { logger: logger2 },
          ),
        },
      ],
    });
    const slowAddress = `127.0.0.1:${slow.port}`;
    const slowClient = createServiceClient(DisclaimerServiceService, slowAddress, { deadlineMs: 5_000 });
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

describe("administrative methods", () => {
  it("refuse calls without the admin token, and take calls with it; other methods stay open", async () => {
    const adminToken = "a".repeat(40);
    const guarded = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      logger,
      services: [
        {
          name: serviceName,
          definition: DisclaimerServiceService,
          implementation: implement(
            DisclaimerServiceService,
            disclaimerMethods({
              listRequiredDisclaimers: async () => ({ disclaimers: [] }),
              acceptDisclaimers: async () => ({ missing: [], acceptedAt: new Date() }),
              createDisclaimer: async () => ({}),
            }),
            { logger, admin: { token: adminToken, methods: ["createDisclaimer"] } },
          ),
        },
      ],
    });
    const target = `127.0.0.1:${guarded.port}`;
    const request = { companyId: "c", code: "x", title: "t", description: "", link: "https://x" };
    const anonymous = createServiceClient(DisclaimerServiceService, target, { deadlineMs: 2_000 });
    const impostor = createServiceClient(DisclaimerServiceService, target, {
      deadlineMs: 2_000,
      adminToken: "b".repeat(40),
    });
    const operator = createServiceClient(DisclaimerServiceService, target, { deadlineMs: 2_000, adminToken });
    expect((await anonymous.createDisclaimer(request).catch((e) => e)).code).toBe("admin.unauthenticated");
    expect((await impostor.createDisclaimer(request).catch((e) => e)).code).toBe("admin.unauthenticated");
    await expect(operator.createDisclaimer(request)).resolves.toEqual({});
    await expect(anonymous.listRequiredDisclaimers({ companyId: "c", userId: "u" })).resolves.toEqual({
      disclaimers: [],
    });
    for (const client of [anonymous, impostor, operator]) client.close();
    await guarded.stop(100);
  });
});
