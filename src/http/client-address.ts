import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config';

export interface ClientAddresses {
  /** Fastify's `trustProxy`: which peers may name, in X-Forwarded-For, whom they forward. */
  trustProxy: false | ((address: string, hop: number) => boolean);
  /** A raw request's client address as Fastify's `request.ip` says it (for WebSocket upgrades, which Fastify never sees). */
  addressOf(request: IncomingMessage): string;
}

/** TRUST_PROXY, for Fastify and for the graphql-ws upgrade alike, so both count the same caller. */
export function clientAddresses(trustProxy: Config['trustProxy']): ClientAddresses {
  const trust = trustProxy === true ? () => true : trustProxy === false ? undefined : proxyAddr.compile(trustProxy);
  return {
    trustProxy: trust ?? false,
    addressOf: (request) => (trust ? proxyAddr(request, trust) : (request.socket.remoteAddress ?? '')),
  };
}
