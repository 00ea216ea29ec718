import { unanswered } from "@auth/grpc-kit/client";

/** The services authctl calls: the environment variable of each one's address (else --<service>), and its default. */
export const serviceAddresses = {
  identity: { env: "AUTH_IDENTITY_ADDR", fallback: "127.0.0.1:50051" },
  session: { env: "AUTH_SESSION_ADDR", fallback: "127.0.0.1:50052" },
  disclaimer: { env: "AUTH_DISCLAIMER_ADDR", fallback: "127.0.0.1:50055" },
  audit: { env: "AUTH_AUDIT_ADDR", fallback: "127.0.0.1:50056" },
} as const;

export type Service = keyof typeof serviceAddresses;

/** Where an address came from, as commander tells it (getOptionValueSource). */
export type AddressSource = (service: Service) => string | undefined;

/** A service that gave no answer, said in one line: which, at what address, and what sets it. */
export function notAnswered(
  error: unknown,
  service: Service,
  address: string,
  source: string | undefined,
  deadlineMs: number,
) {
  const how = unanswered(error);
  if (how === undefined) return error;
  const { env } = serviceAddresses[service];
  const origin =
    source === "env"
      ? `the address of ${env}`
      : source === "cli"
        ? `the address of --${service}`
        : `the default address; set ${env} or --${service}`;
  return new Error(
    how === "unreachable"
      ? `cannot reach ${service} at ${address} (${origin})`
      : `no answer from ${service} at ${address} within ${deadlineMs} ms (${origin}; --deadline sets the wait)`,
  );
}
