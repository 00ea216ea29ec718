import {
  adminMetadata,
  channelCredentialsOf,
  fromServiceError,
  type GrpcServiceName,
  type GrpcTransport,
} from "@auth/grpc-kit";
import { Client, Metadata, type ServiceError } from "@grpc/grpc-js";

const bytes = (value: Buffer) => value;

/** What a call got: "ok", or the error code the caller sees (and the gRPC status it came with). */
export type CallOutcome = { code: "ok"; response: Buffer } | { code: string; grpcStatus: number };

/**
 * A gRPC client that sends the bytes it is given, as an attacker's would: fields the contract no
 * longer has, or an empty message to any method. It presents the transport's certificate.
 */
export function rawGrpcClient(address: string, transport: GrpcTransport, server: GrpcServiceName) {
  const channel = channelCredentialsOf(transport, server);
  const client = new Client(address, channel.credentials, channel.options);
  return {
    call(path: string, request: Buffer = Buffer.alloc(0), adminToken?: string): Promise<CallOutcome> {
      return new Promise((resolve) => {
        client.makeUnaryRequest(
          path,
          bytes,
          bytes,
          request,
          adminToken ? adminMetadata(adminToken) : new Metadata(),
          { deadline: Date.now() + 10_000 },
          (error: ServiceError | null, response?: Buffer) => {
            resolve(
              error
                ? { code: fromServiceError(error).code, grpcStatus: error.code }
                : { code: "ok", response: response ?? Buffer.alloc(0) },
            );
          },
        );
      });
    },
    close: () => client.close(),
  };
}

export type RawGrpcClient = ReturnType<typeof rawGrpcClient>;

function varint(n: number): Buffer {
  const out: number[] = [];
  let rest = n;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}

/**
 * A length-delimited protobuf field (wire type 2): a string or an encoded message, to append to an
 * encoded request as a field its contract does not (or no longer) have.
 */
export function lengthDelimitedField(fieldNumber: number, value: string | Uint8Array): Buffer {
  const data = Buffer.from(value);
  return Buffer.concat([varint((fieldNumber << 3) | 2), varint(data.length), data]);
}
