// `azqueue/worker`: the edge Worker (hosts/edge/worker.mjs) with its Durable Object classes.
export declare class QueueObject {
  constructor(ctx: unknown, env: Record<string, unknown>);
  fetch(request: Request): Promise<Response>;
}
export declare class DirectoryObject {
  constructor(ctx: unknown, env: Record<string, unknown>);
  fetch(request: Request): Promise<Response>;
}
declare const worker: {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
};
export default worker;
