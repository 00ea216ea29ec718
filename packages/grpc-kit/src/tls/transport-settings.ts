import { readFileSync } from "node:fs";
import { env } from "@auth/runtime";
import { z } from "zod";
import type { GrpcTransport } from "./transport.js";

/**
 * How a process speaks gRPC: mutual TLS (the only way in production), or plain text when the
 * development flag asks for it. Read by every process that serves or calls gRPC.
 */
export const grpcTransportEnvironment = {
  /** The CA that signs every process's certificate (PEM); the trust anchor of every connection. */
  TLS_CA_FILE: z.string().min(1).optional(),
  /** This process's certificate (PEM), with its SPIFFE ID `spiffe://auth-suite/<name>` as URI SAN. */
  TLS_CERT_FILE: z.string().min(1).optional(),
  /** Its private key (PEM). */
  TLS_KEY_FILE: z.string().min(1).optional(),
  /** Seconds between reads of the three files, so that renewed certificates are taken without a restart. */
  TLS_REFRESH_SECONDS: env.positiveInt(60),
  /** Development only: gRPC in plain text, no caller authenticated. The process says so loudly at start. */
  GRPC_PLAINTEXT_DEV: z.stringbool().default(false),
};

type TransportSettings = {
  TLS_CA_FILE?: string;
  TLS_CERT_FILE?: string;
  TLS_KEY_FILE?: string;
  TLS_REFRESH_SECONDS: number;
  GRPC_PLAINTEXT_DEV: boolean;
};

const tlsFiles = ["TLS_CA_FILE", "TLS_CERT_FILE", "TLS_KEY_FILE"] as const;

/** Without the development flag the three files are required and readable PEM. */
export function checkTransportSettings(settings: TransportSettings, context: z.RefinementCtx): void {
  if (settings.GRPC_PLAINTEXT_DEV) return;
  for (const name of tlsFiles) {
    const file = settings[name];
    if (file === undefined) {
      context.addIssue({
        code: "custom",
        path: [name],
        message:
          "is required: every gRPC connection is mutual TLS (GRPC_PLAINTEXT_DEV=true turns it off, for development only)",
      });
      continue;
    }
    try {
      if (!readFileSync(file, "utf8").includes("-----BEGIN ")) throw new Error("no PEM block");
    } catch (error) {
      context.addIssue({
        code: "custom",
        path: [name],
        message: `cannot be read as PEM (${file}: ${(error as Error).message})`,
      });
    }
  }
}

export function transportOf(settings: TransportSettings): GrpcTransport {
  if (settings.GRPC_PLAINTEXT_DEV) return { kind: "plaintext" };
  return {
    kind: "mtls",
    caFile: settings.TLS_CA_FILE ?? "",
    certFile: settings.TLS_CERT_FILE ?? "",
    keyFile: settings.TLS_KEY_FILE ?? "",
    refreshMs: settings.TLS_REFRESH_SECONDS * 1000,
  };
}

/** What a process in plain text writes at start, at the level of errors, so that nobody misses it. */
export const plaintextWarning =
  "gRPC IN PLAIN TEXT (GRPC_PLAINTEXT_DEV=true): no caller is authenticated and every call crosses the network readable; for development only, never in production";
