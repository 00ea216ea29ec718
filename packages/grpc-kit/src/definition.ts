/** The shape of one unary method in a service definition that ts-proto generates for grpc-js. */
export interface UnaryMethod<Req, Res> {
  readonly path: string;
  readonly requestStream: false;
  readonly responseStream: false;
  readonly requestSerialize: (value: Req) => Buffer;
  readonly requestDeserialize: (value: Buffer) => Req;
  readonly responseSerialize: (value: Res) => Buffer;
  readonly responseDeserialize: (value: Buffer) => Res;
}

export type RequestOf<M> = M extends { requestDeserialize: (value: Buffer) => infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize: (value: Buffer) => infer Res } ? Res : never;

// biome-ignore lint/suspicious/noExplicitAny: method request and response types vary per method.
export type ServiceDefinition = Record<string, UnaryMethod<any, any>>;
