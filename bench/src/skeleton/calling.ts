import { channelCredentialsOf } from "@auth/grpc-kit";
import { mtlsTransport } from "@auth/grpc-kit/dev-pki";
import { Client, Metadata } from "@grpc/grpc-js";
import { nestedCalls } from "./calls.js";
import { type CallInput, type SkeletonMethod, type SkeletonService, skeletonMethods } from "./messages.js";

/** This process's certificate files, as the suite hands them to its processes (TLS_*). */
export const ownTransport = () =>
  mtlsTransport({
    caFile: process.env.TLS_CA_FILE ?? "",
    certFile: process.env.TLS_CERT_FILE ?? "",
    keyFile: process.env.TLS_KEY_FILE ?? "",
  });

/** One channel per service called, over mutual TLS with the holder's certificate, as the product's processes keep. */
export function skeletonClients(
  addresses: Partial<Record<SkeletonService, string>>,
): Partial<Record<SkeletonService, Client>> {
  const transport = ownTransport();
  return Object.fromEntries(
    Object.entries(addresses).map(([service, address]) => {
      const { credentials, options } = channelCredentialsOf(transport, service as SkeletonService);
      return [service, new Client(address, credentials, options)];
    }),
  );
}

/** One unary call of the product's contract with its fixed request, and a deadline as the product sets. */
export function callSkeleton(
  clients: Partial<Record<SkeletonService, Client>>,
  method: SkeletonMethod,
  input: CallInput,
): Promise<unknown> {
  const { service, definition, request } = skeletonMethods[method];
  const client = clients[service];
  if (!client) throw new Error(`no channel to ${service} for ${method}`);
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      definition.path,
      definition.requestSerialize as (value: unknown) => Buffer,
      definition.responseDeserialize as (value: Buffer) => unknown,
      request(input),
      new Metadata(),
      { deadline: Date.now() + 5_000 },
      (error, answer) => (error ? reject(error) : resolve(answer)),
    ),
  );
}

/** The calls a service makes while serving `method`, one after the other. */
export async function callNested(
  clients: Partial<Record<SkeletonService, Client>>,
  method: SkeletonMethod,
  input: CallInput,
): Promise<void> {
  for (const nested of nestedCalls[method] ?? []) await callSkeleton(clients, nested, input);
}
