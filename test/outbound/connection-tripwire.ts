import dns from 'node:dns';
import net from 'node:net';

/**
 * Records every outgoing TCP connection this process attempts and stops any whose destination is
 * not loopback before a packet leaves the machine. Tests use it to prove "no connection was
 * attempted" for refused URLs, and as a safety net for the rule that tests only talk to loopback.
 *
 * It wraps net.Socket#connect, which net.connect, http, https and tls all go through. For an IP
 * destination the check happens at once; for a hostname it wraps the socket's lookup, so the
 * address actually connected to (not the name) is what is checked and recorded.
 */
export interface ConnectionTripwire {
  /** "address:port" of every loopback connection attempted, in order. */
  readonly attempts: string[];
  /** "address:port" of non-loopback connections that were stopped. Must stay empty. */
  readonly stopped: string[];
  restore(): void;
}

type LookupCallback = (
  error: Error | null,
  address?: string | { address: string; family: number }[],
  family?: number,
) => void;
type Lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void;

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
/** 127.0.0.0/8, ::1, and IPv4-mapped loopback in any spelling (BlockList matches ::ffff:a.b.c.d against IPv4 rules). */
const isLoopback = (address: string) =>
  net.isIP(address) !== 0 && LOOPBACK.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');

export function installConnectionTripwire(): ConnectionTripwire {
  const attempts: string[] = [];
  const stopped: string[] = [];
  const original = net.Socket.prototype.connect;

  const check = (address: string, port: unknown): Error | null => {
    const target = `${address}:${String(port)}`;
    if (isLoopback(address)) {
      attempts.push(target);
      return null;
    }
    stopped.push(target);
    return new Error(`connection tripwire: test tried to connect to non-loopback ${target}`);
  };

  net.Socket.prototype.connect = function connectThroughTripwire(this: net.Socket, ...args: unknown[]) {
    // net.connect passes its already-normalised [options, listener] array as the only argument;
    // a direct socket.connect(port, host?, listener?) is turned into the options form here.
    if (!Array.isArray(args[0]) && (typeof args[0] !== 'object' || args[0] === null)) {
      const hostGiven = typeof args[1] === 'string';
      args = [{ port: args[0], host: hostGiven ? args[1] : undefined }, ...args.slice(hostGiven ? 2 : 1)];
    }
    const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as Record<string, unknown>;
    if (typeof options.path === 'string') return original.apply(this, args as never); // unix socket

    const host = typeof options.host === 'string' && options.host !== '' ? options.host : 'localhost';
    if (net.isIP(host) !== 0) {
      const refusal = check(host, options.port);
      if (refusal) {
        process.nextTick(() => this.destroy(refusal));
        return this;
      }
    } else {
      const innerLookup = (options.lookup as Lookup | undefined) ?? (dns.lookup as unknown as Lookup);
      options.lookup = ((hostname, lookupOptions, callback) => {
        innerLookup(hostname, lookupOptions, (error, address, family) => {
          if (error) return callback(error);
          const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address as string];
          for (const candidate of addresses) {
            const refusal = check(candidate, options.port);
            if (refusal) return callback(refusal);
          }
          callback(null, address, family);
        });
      }) satisfies Lookup;
    }
    return original.apply(this, args as never);
  } as typeof original;

  return {
    attempts,
    stopped,
    restore() {
      net.Socket.prototype.connect = original;
    },
  };
}
