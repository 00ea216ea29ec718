import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TlsFiles } from "@auth/grpc-kit/dev-pki";
import { deleteKeys } from "@auth/kv/testing";
import { createTestDatabase } from "@auth/pg/testing";
import { type RunningSuite, startSuite } from "@auth/suite";
import { patientWithStores, suiteOptionsFromEnvironment } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    gatewayUrl: string;
    identityAddress: string;
    sessionAddress: string;
    otpAddress: string;
    recoveryAddress: string;
    disclaimerAddress: string;
    auditAddress: string;
    adminToken: string;
    /** The certificate files of the suite's processes, its operator and its consumers. */
    certificates: Record<string, TlsFiles>;
    smsOutboxFile: string;
    mailOutboxFile: string;
  }
}

let suite: RunningSuite | undefined;
let cleanUp: () => Promise<void> = async () => {};

/** One suite for every test file: the seven processes on free ports, on the stores the environment names. */
export async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-"));
  const stores = await suiteOptionsFromEnvironment(createTestDatabase, deleteKeys);
  cleanUp = async () => {
    await stores.cleanUp();
    rmSync(dataDir, { recursive: true, force: true });
  };
  suite = await startSuite({
    dataDir,
    ...stores.options,
    logLevel: "warn",
    startTimeoutMs: testBudgets.suiteStartMs,
    // Other products of the company that validate tokens; a second one to show they are told apart.
    certificateHolders: ["consumer/e2e", "consumer/billing"],
    // Errors of the processes (and anything that is no log line, such as a crash) show in the test output.
    onLine: (name, line) => {
      const devOutbox = line.startsWith("[dev ");
      if ((!line.startsWith("{") && !devOutbox) || /"level":(5|6)\d/.test(line))
        process.stderr.write(`[${name}] ${line}\n`);
    },
    // The tests' OpenID Connect provider listens on plain HTTP on loopback.
    env: patientWithStores({
      identity: { OAUTH_ALLOW_INSECURE_HTTP: "true", OAUTH_TIMEOUT_SECONDS: "2" },
      // Short, as suspension.test.ts waits for every resend cooldown to be over; otp-timing.test.ts
      // tests the cooldown itself, in a suite of its own.
      otp: { OTP_RESEND_COOLDOWN_SECONDS: "5" },
      // Suspensions and policy changes of a test take effect at once. A call to a service on a loaded
      // machine may take seconds; the files that test deadlines start suites of their own.
      gateway: { API_KEY_CACHE_SECONDS: "0", GRPC_DEADLINE_MS: "20000", REQUEST_DEADLINE_MS: "30000" },
    }),
  });
  project.provide("gatewayUrl", suite.gatewayUrl);
  project.provide("identityAddress", suite.addresses.identity);
  project.provide("sessionAddress", suite.addresses.session);
  project.provide("otpAddress", suite.addresses.otp);
  project.provide("recoveryAddress", suite.addresses.recovery);
  project.provide("disclaimerAddress", suite.addresses.disclaimer);
  project.provide("auditAddress", suite.addresses.audit);
  project.provide("adminToken", suite.adminToken);
  project.provide("certificates", suite.certificates);
  project.provide("smsOutboxFile", suite.smsOutboxFile);
  project.provide("mailOutboxFile", suite.mailOutboxFile);
}

export async function teardown() {
  await suite?.stop();
  await cleanUp();
}
