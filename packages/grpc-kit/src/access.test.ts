import { readFileSync, writeFileSync } from "node:fs";
import { TLSSocket } from "node:tls";
import type { AuthError } from "@auth/errors";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { metrics } from "@auth/telemetry";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type AccessTable, checkAccessTable } from "./access.js";
import {
  callerOf,
  createServiceClient,
  type GrpcServiceName,
  type GrpcTransport,
  hashAdminToken,
  implement,
  plaintextWarning,
  type RunningGrpcServer,
} from "./index.js";
import {
  disclaimerMethods,
  silent,
  startDisclaimerServer,
  testAccess,
  testPki,
} from "./test-servers.testing.js";
import { checkTransportSettings, grpcTransportEnvironment } from "./tls/transport-settings.js";

const adminToken = "a".repeat(40);
const createRequest = { companyId: "c", code: "x", title: "t", description: "", link: "https://x" };
const listRequest = { companyId: "c", userId: "u" };

let transports: Record<string, GrpcTransport>;
let strangers: Record<string, GrpcTransport>;
let server: RunningGrpcServer;
let target: string;

const clientOf = (
  transport: GrpcTransport,
  options: { adminToken?: string; server?: GrpcServiceName } = {},
) =>
  createServiceClient(DisclaimerServiceService, target, {
    deadlineMs: 5_000,
    transport,
    server: options.server ?? "disclaimer",
    ...(options.adminToken ? { adminToken: options.adminToken } : {}),
  });

const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

beforeAll(async () => {
  transports = await testPki(["disclaimer", "session", "gateway", "operator", "otp", "consumer/billing"]);
  // Certificates of another CA, with the very same names.
  strangers = await testPki(["gateway", "operator"]);
  server = await startDisclaimerServer({
    transport: transports.disclaimer as GrpcTransport,
    adminTokenSha256: hashAdminToken(adminToken),
    methods: {
      listRequiredDisclaimers: async () => ({ disclaimers: [] }),
      createDisclaimer: async () => ({}),
    },
  });
  target = `127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server?.stop(100);
});

describe("mutual TLS", () => {
  it("takes a call from a caller whose certificate the CA signed", async () => {
    const gateway = clientOf(transports.gateway as GrpcTransport);
    expect(await codeOf(gateway.listRequiredDisclaimers(listRequest))).toBe("ok");
    gateway.close();
  });

  it("refuses a caller without a certificate, in plain text, or with a certificate of another CA", async () => {
    for (const transport of [{ kind: "plaintext" } as const, strangers.gateway as GrpcTransport]) {
      const client = clientOf(transport);
      expect(await codeOf(client.listRequiredDisclaimers(listRequest))).toBe("service.unavailable");
      client.close();
    }
  });

  it("is refused by a client when the server is not the service it wants", async () => {
    const confused = clientOf(transports.gateway as GrpcTransport, { server: "session" });
    expect(await codeOf(confused.listRequiredDisclaimers(listRequest))).toBe("service.unavailable");
    confused.close();
  });
});

describe("the caller of a connection", () => {
  it("is read from its certificate once, however many calls the connection carries", async () => {
    const gateway = clientOf(transports.gateway as GrpcTransport);
    const operator = clientOf(transports.operator as GrpcTransport, { adminToken });
    // Each client's connection is up, and its caller known, before the calls counted.
    expect(await codeOf(gateway.listRequiredDisclaimers(listRequest))).toBe("ok");
    expect(await codeOf(operator.createDisclaimer(createRequest))).toBe("ok");
    const reads = vi.spyOn(TLSSocket.prototype, "getPeerCertificate");
    try {
      for (let call = 0; call < 5; call++) {
        expect(await codeOf(gateway.listRequiredDisclaimers(listRequest))).toBe("ok");
        // Another connection keeps its own caller: the gateway may not do what the operator may.
        expect(await codeOf(gateway.createDisclaimer(createRequest))).toBe("caller.forbidden");
        expect(await codeOf(operator.createDisclaimer(createRequest))).toBe("ok");
      }
      // The server side of a connection is the socket on the server's port.
      const serverReads = reads.mock.contexts.filter(
        (socket) => (socket as TLSSocket).localPort === server.port,
      );
      expect(serverReads).toHaveLength(0);
    } finally {
      reads.mockRestore();
      gateway.close();
      operator.close();
    }
  });
});

describe("the access table", () => {
  it("refuses a caller its row does not name with caller.forbidden, before the handler, and counts it", async () => {
    const denials = async (caller: string) =>
      (await metrics.grpcCallsDenied.get()).values
        .filter((value) => value.labels.caller === caller)
        .reduce((sum, value) => sum + value.value, 0);
    const [otpBefore, consumerBefore] = [await denials("otp"), await denials("consumer")];
    const otp = clientOf(transports.otp as GrpcTransport);
    const consumer = clientOf(transports["consumer/billing"] as GrpcTransport);
    const gateway = clientOf(transports.gateway as GrpcTransport, { adminToken });
    expect(await codeOf(otp.listRequiredDisclaimers(listRequest))).toBe("caller.forbidden");
    expect(await codeOf(consumer.createDisclaimer(createRequest))).toBe("caller.forbidden");
    expect(await codeOf(gateway.createDisclaimer(createRequest))).toBe("caller.forbidden");
    expect(await denials("otp")).toBe(otpBefore + 1);
    expect(await denials("consumer")).toBe(consumerBefore + 1);
    for (const client of [otp, consumer, gateway]) client.close();
  });

  it("asks an operator for the admin token too", async () => {
    const bare = clientOf(transports.operator as GrpcTransport);
    const wrong = clientOf(transports.operator as GrpcTransport, { adminToken: "b".repeat(40) });
    const operator = clientOf(transports.operator as GrpcTransport, { adminToken });
    expect(await codeOf(bare.createDisclaimer(createRequest))).toBe("admin.unauthenticated");
    expect(await codeOf(wrong.createDisclaimer(createRequest))).toBe("admin.unauthenticated");
    expect(await codeOf(operator.createDisclaimer(createRequest))).toBe("ok");
    // An operator's certificate is no gateway's: the flows' methods stay closed to it.
    expect(await codeOf(operator.listRequiredDisclaimers(listRequest))).toBe("caller.forbidden");
    for (const client of [bare, wrong, operator]) client.close();
  });

  it("knows the admin token by its SHA-256 alone, which is no token: presenting the hash is refused", async () => {
    const hash = hashAdminToken(adminToken);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const withHash = clientOf(transports.operator as GrpcTransport, { adminToken: hash });
    const upper = clientOf(transports.operator as GrpcTransport, { adminToken: hash.toUpperCase() });
    expect(await codeOf(withHash.createDisclaimer(createRequest))).toBe("admin.unauthenticated");
    expect(await codeOf(upper.createDisclaimer(createRequest))).toBe("admin.unauthenticated");
    for (const client of [withHash, upper]) client.close();
  });

  it("does not start with an admin token's hash that is not 64 hex digits (the plain token, say)", () => {
    const start = (adminTokenSha256: string) => () =>
      implement(DisclaimerServiceService, disclaimerMethods({}), {
        logger: silent,
        access: testAccess,
        adminTokenSha256,
      });
    expect(start(adminToken)).toThrow(/SHA-256 must be 64 hex digits/);
    expect(start(hashAdminToken(adminToken).slice(1))).toThrow(/SHA-256 must be 64 hex digits/);
    expect(start(hashAdminToken(adminToken).toUpperCase())).not.toThrow();
  });

  it("must have one row per method, or the service does not start", () => {
    const { acceptDisclaimers: _, ...missing } = testAccess;
    expect(() =>
      implement(DisclaimerServiceService, disclaimerMethods({}), {
        logger: silent,
        access: missing as AccessTable<typeof DisclaimerServiceService>,
      }),
    ).toThrow(/acceptDisclaimers has no row/);
    expect(() =>
      checkAccessTable("x", DisclaimerServiceService, { ...testAccess, dropEverything: ["gateway"] }),
    ).toThrow(/dropEverything is no method/);
    expect(() =>
      checkAccessTable("x", DisclaimerServiceService, { ...testAccess, acceptDisclaimers: ["anyone"] }),
    ).toThrow(/unknown caller "anyone"/);
  });
});

describe("a server in plain text (GRPC_PLAINTEXT_DEV)", () => {
  it("says so at start at the level of errors, authenticates nobody, and guards the operators' methods with the admin token alone", async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const plain = await startDisclaimerServer({
      transport: { kind: "plaintext" },
      logger,
      adminTokenSha256: hashAdminToken(adminToken),
      methods: {
        listRequiredDisclaimers: async () => ({ disclaimers: [] }),
        createDisclaimer: async () => ({}),
      },
    });
    const options = {
      deadlineMs: 5_000,
      transport: { kind: "plaintext" } as const,
      server: "disclaimer" as const,
    };
    const anyone = createServiceClient(DisclaimerServiceService, `127.0.0.1:${plain.port}`, options);
    const operator = createServiceClient(DisclaimerServiceService, `127.0.0.1:${plain.port}`, {
      ...options,
      adminToken,
    });
    expect(await codeOf(anyone.listRequiredDisclaimers(listRequest))).toBe("ok");
    expect(await codeOf(anyone.createDisclaimer(createRequest))).toBe("admin.unauthenticated");
    expect(await codeOf(operator.createDisclaimer(createRequest))).toBe("ok");
    anyone.close();
    operator.close();
    await plain.stop(100);
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: plaintextWarning }));
  });
});

describe("certificate rotation", () => {
  it("takes renewed certificate files without a restart", async () => {
    const rotating = await testPki(["disclaimer", "gateway"]);
    const serverTransport = {
      ...(rotating.disclaimer as Extract<GrpcTransport, { kind: "mtls" }>),
      refreshMs: 100,
    };
    const rotatingServer = await startDisclaimerServer({
      transport: serverTransport,
      methods: { listRequiredDisclaimers: async () => ({ disclaimers: [] }) },
    });
    const address = `127.0.0.1:${rotatingServer.port}`;
    const call = async (transport: GrpcTransport) => {
      const client = createServiceClient(DisclaimerServiceService, address, {
        deadlineMs: 5_000,
        transport,
        server: "disclaimer",
      });
      try {
        return await codeOf(client.listRequiredDisclaimers(listRequest));
      } finally {
        client.close();
      }
    };
    // The whole PKI moves to a new CA: the server's files are replaced in place.
    const renewed = await testPki(["disclaimer", "gateway"]);
    const renewedServer = renewed.disclaimer as Extract<GrpcTransport, { kind: "mtls" }>;
    expect(await call(rotating.gateway as GrpcTransport)).toBe("ok");
    for (const [from, to] of [
      [renewedServer.caFile, serverTransport.caFile],
      [renewedServer.certFile, serverTransport.certFile],
      [renewedServer.keyFile, serverTransport.keyFile],
    ] as const) {
      writeFileSync(to, readFileSync(from));
    }
    // Waits for the event itself: a caller of the new CA gets through once the server has read the files.
    const deadline = Date.now() + 30_000;
    while ((await call(renewed.gateway as GrpcTransport)) !== "ok") {
      if (Date.now() > deadline) throw new Error("the renewed certificate was never taken");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await call(rotating.gateway as GrpcTransport)).toBe("service.unavailable");
    await rotatingServer.stop(100);
  });
});

describe("who a certificate names", () => {
  const san = (subjectaltname: string) => ({ subjectaltname });

  it("is the caller of its one SPIFFE ID in the suite's trust domain", () => {
    expect(callerOf(san("URI:spiffe://auth-suite/gateway, DNS:gateway"))).toBe("gateway");
    expect(callerOf(san("URI:spiffe://auth-suite/consumer/billing"))).toBe("consumer");
    expect(callerOf(san("URI:spiffe://auth-suite/operator"))).toBe("operator");
  });

  it("is nobody for another trust domain, an unknown role, a bare consumer, or several IDs", () => {
    expect(callerOf(san("URI:spiffe://elsewhere/gateway"))).toBeUndefined();
    expect(callerOf(san("URI:spiffe://auth-suite/root"))).toBeUndefined();
    expect(callerOf(san("URI:spiffe://auth-suite/consumer"))).toBeUndefined();
    expect(callerOf(san("URI:spiffe://auth-suite/gateway/extra"))).toBeUndefined();
    expect(callerOf(san("URI:spiffe://auth-suite/otp, URI:spiffe://auth-suite/gateway"))).toBeUndefined();
    expect(callerOf(san("DNS:gateway"))).toBeUndefined();
    expect(callerOf(undefined)).toBeUndefined();
  });
});

describe("the transport settings", () => {
  const schema = z.object(grpcTransportEnvironment).superRefine(checkTransportSettings);

  it("require the three files unless the development flag turns TLS off", () => {
    const result = schema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toEqual([
      "TLS_CA_FILE",
      "TLS_CERT_FILE",
      "TLS_KEY_FILE",
    ]);
    expect(result.error?.issues[0]?.message).toMatch(
      /GRPC_PLAINTEXT_DEV=true turns it off, for development only/,
    );
    expect(schema.safeParse({ GRPC_PLAINTEXT_DEV: "true" }).success).toBe(true);
  });

  it("refuse a file that is not PEM", () => {
    const transport = transports.gateway as Extract<GrpcTransport, { kind: "mtls" }>;
    const result = schema.safeParse({
      TLS_CA_FILE: transport.caFile,
      TLS_CERT_FILE: "/nonexistent",
      TLS_KEY_FILE: transport.keyFile,
    });
    expect(result.error?.issues.map((issue) => issue.path[0])).toEqual(["TLS_CERT_FILE"]);
  });
});
