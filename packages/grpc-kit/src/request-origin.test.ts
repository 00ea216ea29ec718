import { setImmediate } from "node:timers/promises";
import type { EventOrigin } from "@auth/events";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createServiceClient,
  eventOriginOf,
  forRequest,
  type GrpcTransport,
  hashAdminToken,
  type RunningGrpcServer,
  requestMetadata,
} from "./index.js";
import { startDisclaimerServer, testPki } from "./test-servers.testing.js";

const adminToken = "a".repeat(40);
const listRequest = { companyId: "c", userId: "u" };
const createRequest = { companyId: "c", code: "x", title: "t", description: "", link: "https://x" };
const origin = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", clientAddress: "203.0.113.7" };

let transports: Record<string, GrpcTransport>;
let server: RunningGrpcServer;
/** What the server made of each call it took, by the user id of its request. */
const seen = new Map<string, EventOrigin>();

const clientOf = (holder: "gateway" | "operator") =>
  createServiceClient(DisclaimerServiceService, `127.0.0.1:${server.port}`, {
    deadlineMs: 5_000,
    transport: transports[holder] as GrpcTransport,
    server: "disclaimer",
    ...(holder === "operator" ? { adminToken } : {}),
  });

beforeAll(async () => {
  transports = await testPki(["disclaimer", "gateway", "operator"]);
  server = await startDisclaimerServer({
    transport: transports.disclaimer as GrpcTransport,
    adminTokenSha256: hashAdminToken(adminToken),
    methods: {
      listRequiredDisclaimers: async (request, context) => {
        seen.set(request.userId, eventOriginOf(context));
        return { disclaimers: [] };
      },
      createDisclaimer: async () => ({}),
    },
  });
});

afterAll(async () => {
  await server?.stop(100);
});

describe("the request's origin in a call's metadata", () => {
  it("goes with every call made for the request, after any number of awaits", async () => {
    const gateway = clientOf("gateway");
    const calls = forRequest(gateway, { metadata: requestMetadata(origin) });
    await setImmediate();
    await calls.listRequiredDisclaimers({ ...listRequest, userId: "inside" });
    await calls.listRequiredDisclaimers({ ...listRequest, userId: "inside, again" });
    expect(seen.get("inside")).toMatchObject(origin);
    expect(seen.get("inside, again")).toMatchObject(origin);
    gateway.close();
  });

  it("goes with no call made outside a request", async () => {
    const gateway = clientOf("gateway");
    forRequest(gateway, { metadata: requestMetadata(origin) });
    await gateway.listRequiredDisclaimers({ ...listRequest, userId: "outside" });
    expect(seen.get("outside")).toMatchObject({ traceId: "", clientAddress: "" });
    gateway.close();
  });

  it("is each request's own when requests are served at once", async () => {
    const gateway = clientOf("gateway");
    const other = { traceId: "0af7651916cd43dd8448eb211c80319c", clientAddress: "2001:db8::1" };
    await Promise.all(
      [origin, other].map(async (each) => {
        const calls = forRequest(gateway, { metadata: requestMetadata(each) });
        await setImmediate();
        await calls.listRequiredDisclaimers({ ...listRequest, userId: each.traceId });
      }),
    );
    expect(seen.get(origin.traceId)).toMatchObject(origin);
    expect(seen.get(other.traceId)).toMatchObject(other);
    gateway.close();
  });

  it("leaves an operator's client its admin token, on every call", async () => {
    const operator = clientOf("operator");
    await expect(operator.createDisclaimer(createRequest)).resolves.toEqual({});
    await expect(operator.createDisclaimer(createRequest)).resolves.toEqual({});
    operator.close();
  });
});
