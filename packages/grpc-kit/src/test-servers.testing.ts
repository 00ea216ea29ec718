import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { type Logger, pino } from "pino";
import type { AccessTable } from "./access.js";
import { type AsyncService, implement } from "./handlers.js";
import { type RunningGrpcServer, startGrpcServer } from "./server.js";
import { ensureDevPki, mtlsTransport, type PkiHolder } from "./tls/dev-pki.js";
import type { GrpcTransport } from "./tls/transport.js";

export const silent = pino({ level: "silent" });
export const disclaimerServiceName = "auth.disclaimer.v1.DisclaimerService";

const unused = async (): Promise<never> => {
  throw new Error("not called in this test");
};

/** The disclaimer service's methods as a test needs them; the rest are never called. */
export function disclaimerMethods(
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
    listCompaniesWithDisclaimers: unused,
    ...methods,
  };
}

/** The tests' access table: the flows' methods for the gateway, the rest for operators. */
export const testAccess: AccessTable<typeof DisclaimerServiceService> = {
  createDisclaimer: ["operator"],
  publishDisclaimerVersion: ["operator"],
  deactivateDisclaimer: ["operator"],
  listDisclaimers: ["operator"],
  listAcceptances: ["operator"],
  listRequiredDisclaimers: ["gateway"],
  acceptDisclaimers: ["gateway"],
  listCompaniesWithDisclaimers: ["gateway"],
};

/** A private CA in a temporary directory, and the transport of each holder of one of its certificates. */
export async function testPki(holders: PkiHolder[]): Promise<Record<string, GrpcTransport>> {
  const files = await ensureDevPki(join(mkdtempSync(join(tmpdir(), "grpc-kit-pki-")), "pki"), holders);
  return Object.fromEntries(Object.entries(files).map(([holder, held]) => [holder, mtlsTransport(held)]));
}

/** A server of the disclaimer service with these methods (the rest are never called), under the tests' access table. */
export function startDisclaimerServer(options: {
  transport: GrpcTransport;
  methods: Partial<AsyncService<typeof DisclaimerServiceService>>;
  /** The SHA-256 (hex) of the admin token operators present. */
  adminTokenSha256?: string;
  logger?: Logger;
  healthPort?: number;
  reflection?: boolean;
  ready?: Promise<void>;
  onAnswered?: () => void;
}): Promise<RunningGrpcServer> {
  const { methods, adminTokenSha256, logger = silent, ...server } = options;
  return startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    logger,
    ...server,
    services: [
      {
        name: disclaimerServiceName,
        definition: DisclaimerServiceService,
        implementation: implement(DisclaimerServiceService, disclaimerMethods(methods), {
          logger: silent,
          access: testAccess,
          adminTokenSha256,
        }),
      },
    ],
  });
}
