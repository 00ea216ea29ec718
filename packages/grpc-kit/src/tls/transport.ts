import {
  type ChannelCredentials,
  type ChannelOptions,
  credentials,
  experimental,
  ServerCredentials,
} from "@grpc/grpc-js";
import { type GrpcServiceName, spiffeId, spiffeIdsOf } from "./spiffe.js";

/**
 * How a process speaks gRPC: mutual TLS with the files of its certificate, or plain text under the
 * development flag (transport-settings.ts reads which from the environment).
 */
export type GrpcTransport =
  | { kind: "mtls"; caFile: string; certFile: string; keyFile: string; refreshMs: number }
  | { kind: "plaintext" };

const watchers = new Map<string, experimental.FileWatcherCertificateProvider>();

/** One watcher of the files per process, shared by its server and its clients. */
function filesOf(transport: Extract<GrpcTransport, { kind: "mtls" }>) {
  const key = [transport.caFile, transport.certFile, transport.keyFile, transport.refreshMs].join("\0");
  let watcher = watchers.get(key);
  if (!watcher) {
    watcher = new experimental.FileWatcherCertificateProvider({
      caCertificateFile: transport.caFile,
      certificateFile: transport.certFile,
      privateKeyFile: transport.keyFile,
      refreshIntervalMs: transport.refreshMs,
    });
    watchers.set(key, watcher);
  }
  return watcher;
}

/** A server's credentials: its certificate, and a client certificate of the same CA required of every caller. */
export function serverCredentialsOf(transport: GrpcTransport): ServerCredentials {
  if (transport.kind === "plaintext") return ServerCredentials.createInsecure();
  const files = filesOf(transport);
  return experimental.createCertificateProviderServerCredentials(files, files, true);
}

/**
 * A client's credentials towards one service: its own certificate, and the service's checked by its
 * SPIFFE ID rather than by the address it was reached at (a list of replicas, an IP, a DNS name).
 */
export function channelCredentialsOf(
  transport: GrpcTransport,
  server: GrpcServiceName,
): { credentials: ChannelCredentials; options: ChannelOptions } {
  if (transport.kind === "plaintext") return { credentials: credentials.createInsecure(), options: {} };
  const files = filesOf(transport);
  const expected = spiffeId(server);
  return {
    credentials: experimental.createCertificateProviderChannelCredentials(files, files, {
      checkServerIdentity: (_host, certificate) => {
        const presented = spiffeIdsOf(certificate);
        return presented.length === 1 && presented[0] === expected
          ? undefined
          : new Error(`the server is not ${expected} (it presents ${presented.join(" ") || "no SPIFFE ID"})`);
      },
    }),
    // Sent as the TLS server name: the service's name, never an IP address (RFC 6066).
    options: { "grpc.ssl_target_name_override": server, "grpc.default_authority": server },
  };
}
