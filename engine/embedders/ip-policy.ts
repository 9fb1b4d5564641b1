/**
 * Outbound safety for remote embedders (Meilisearch ≥ 1.43, `crates/http-client/src/policy.rs`): a URL whose
 * host resolves to a non-global address (loopback, private, link-local, shared, documentation, reserved, ...) is
 * refused unless `--experimental-allowed-ip-networks` allows it, by CIDR or with `any`. Global addresses are always
 * allowed. The check runs on the address actually connected to — in the socket's DNS lookup, so a name that
 * resolves to a public address when validated and to a private one when connecting (DNS rebinding) is still
 * refused — and on IP literals, which connect without a lookup. Meilisearch's refusal reads `bad uri: Rejected URI`.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { BlockList, isIP, isIPv4 } from 'node:net'

/**
 * Networks outbound requests may reach besides global addresses: `'any'`, or CIDRs (`127.0.0.0/8`, `::1/128`;
 * a bare address means that address alone). Plain data, so it crosses into worker threads as it is.
 */
export type AllowedIpNetworks = 'any' | readonly string[]

/** The message of the refusal (ureq's `BadUri("Rejected URI")`). */
export const REJECTED_URI = 'bad uri: Rejected URI'

/** Parse the flag's value: `any`, or comma-separated CIDRs. Throws an `Error` naming the first bad entry. */
export function parseAllowedIpNetworks(text: string): AllowedIpNetworks {
  const entries = text.split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'any') return 'any'
  for (const entry of entries) cidr(entry)
  return entries
}

function cidr(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address = '', prefixText] = entry.split('/')
  const version = isIP(address)
  const max = version === 4 ? 32 : 128
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN
  if (version === 0 || !(prefix >= 0 && prefix <= max)) throw new Error(`invalid IP network \`${entry}\``)
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' }
}

/** Thrown by the lookup (and by the literal check) when an address is refused. */
export class RejectedAddress extends Error {
  constructor(readonly address: string) {
    super('Rejected URI')
  }
}

export class IpPolicy {
  private readonly any: boolean
  private readonly allowed = new BlockList()

  constructor(networks: AllowedIpNetworks = []) {
    this.any = networks === 'any'
    if (networks !== 'any') for (const entry of networks) {
      const { address, prefix, family } = cidr(entry)
      this.allowed.addSubnet(address, prefix, family)
    }
  }

  /** Whether connecting to `address` (an IP literal) is allowed. */
  allows(address: string): boolean {
    if (this.any) return true
    const bare = address.startsWith('[') ? address.slice(1, -1) : address
    const version = isIP(bare)
    if (version === 0) return false
    if (version === 4 ? isGlobalV4(v4Octets(bare)) : isGlobalV6(v6Segments(bare))) return true
    return this.allowed.check(bare, version === 4 ? 'ipv4' : 'ipv6')
  }

  /**
   * A `lookup` for `http.Agent`: resolves like `dns.lookup` and fails with `RejectedAddress` when any resolved
   * address is refused (Meilisearch refuses the name when one of its addresses is).
   */
  readonly lookup = (hostname: string, options: { family?: number | string; hints?: number; all?: boolean }, callback: (...args: never[]) => void): void => {
    const done = callback as unknown as (err: Error | null, address?: string | LookupAddress[], family?: number) => void
    const all: LookupAllOptions = { all: true, hints: options.hints, family: normalizeFamily(options.family) }
    dnsLookup(hostname, all, (err, addresses) => {
      if (err) return done(err)
      const refused = addresses.find((a) => !this.allows(a.address))
      if (refused) return done(new RejectedAddress(refused.address))
      if (options.all) return done(null, addresses)
      const first = addresses[0]
      if (!first) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }))
      done(null, first.address, first.family)
    })
  }
}

function normalizeFamily(family: number | string | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4
  if (family === 6 || family === 'IPv6') return 6
  return 0
}

function v4Octets(address: string): number[] {
  return address.split('.').map(Number)
}

/** The eight 16-bit segments of an IPv6 address (with `::` expanded and a trailing IPv4 part converted). */
export function v6Segments(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase()
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (v4 && isIPv4(v4[1]!)) {
    const [a, b, c, d] = v4Octets(v4[1]!) as [number, number, number, number]
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)))
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/** Rust's `Ipv4Addr::is_global` (the version Meilisearch copies). */
export function isGlobalV4([a, b, c, d]: number[]): boolean {
  const isPrivate = a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)
  const isShared = a === 100 && (b! & 0b1100_0000) === 0b0100_0000
  const isLinkLocal = a === 169 && b === 254
  const isProtocolAssignment = a === 192 && b === 0 && c === 0 && d !== 9 && d !== 10
  const isDocumentation = (a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)
  const isBenchmarking = a === 198 && (b! & 0xfe) === 18
  const isBroadcast = a === 255 && b === 255 && c === 255 && d === 255
  const isReserved = (a! & 240) === 240 && !isBroadcast
  return !(a === 0 || isPrivate || isShared || a === 127 || isLinkLocal || isProtocolAssignment || isDocumentation || isBenchmarking || isReserved || isBroadcast)
}

/** Rust's `Ipv6Addr::is_global` (the version Meilisearch copies). */
export function isGlobalV6(s: number[]): boolean {
  const [s0, s1, s2] = s as [number, number, number]
  const zeroUpTo = (n: number) => s.slice(0, n).every((x) => x === 0)
  const unspecified = s.every((x) => x === 0)
  const loopback = zeroUpTo(7) && s[7] === 1
  const v4Mapped = zeroUpTo(5) && s[5] === 0xffff
  const v4v6Translation = s0 === 0x64 && s1 === 0xff9b && s2 === 1
  const discardOnly = s0 === 0x100 && s1 === 0 && s2 === 0 && s[3] === 0
  const ietf = s0 === 0x2001 && s1 < 0x200 && !(
    (s1 === 1 && s2 === 0 && s.slice(3, 7).every((x) => x === 0) && (s[7] === 1 || s[7] === 2)) ||
    s1 === 3 || (s1 === 4 && s2 === 0x112) || (s1 >= 0x20 && s1 <= 0x3f))
  const sixToFour = s0 === 0x2002
  const documentation = (s0 === 0x2001 && s1 === 0xdb8) || (s0 === 0x3fff && s1 <= 0x0fff)
  const srv6 = s0 === 0x5f00
  const uniqueLocal = (s0 & 0xfe00) === 0xfc00
  const linkLocal = (s0 & 0xffc0) === 0xfe80
  return !(unspecified || loopback || v4Mapped || v4v6Translation || discardOnly || ietf || sixToFour || documentation || srv6 || uniqueLocal || linkLocal)
}
