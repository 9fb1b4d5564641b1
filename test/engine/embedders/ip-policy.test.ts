// Outbound safety: which addresses are global (Rust's is_global, as Meilisearch copies it), the allow-list flag,
// and the check at connect time — IP literals and names resolved by DNS, refused before any byte is sent.
import t from 'tap'
import { createEmbedder, parseAllowedIpNetworks, type EmbedderRuntime } from '../../../engine/embedders/index.js'
import { IpPolicy, isGlobalV6, v6Segments } from '../../../engine/embedders/ip-policy.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

t.test('non-global addresses are refused by default, global ones allowed', async (t) => {
  const policy = new IpPolicy()
  for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '192.0.0.1', '192.0.2.5', '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1', '255.255.255.255',
    '::', '::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', 'fe80::1', 'fc00::1', 'fd12:3456::1', '2001:db8::1', '2002::1', '64:ff9b:1::1', '100::1', '2001::1', '5f00::1', '[::1]']) {
    t.notOk(policy.allows(address), address)
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.0.0.9', '100.128.0.1', '2606:4700::1111', '2001:1::1', '2001:4860:4860::8888', '2001:20::1']) {
    t.ok(policy.allows(address), address)
  }
  t.notOk(policy.allows('not an ip'))
})

t.test('the allow-list: CIDRs or any', async (t) => {
  t.equal(parseAllowedIpNetworks('any'), 'any')
  t.same(parseAllowedIpNetworks('127.0.0.0/8, ::1/128,10.0.0.7'), ['127.0.0.0/8', '::1/128', '10.0.0.7'])
  t.throws(() => parseAllowedIpNetworks('127.0.0.0/33'), /invalid IP network `127\.0\.0\.0\/33`/)
  t.throws(() => parseAllowedIpNetworks('localhost'), /invalid IP network `localhost`/)
  const policy = new IpPolicy(['127.0.0.0/8', '::1/128', '10.0.0.7'])
  t.ok(policy.allows('127.9.9.9'))
  t.ok(policy.allows('::1'))
  t.ok(policy.allows('10.0.0.7'))
  t.notOk(policy.allows('10.0.0.8'))
  t.notOk(policy.allows('192.168.0.1'))
  t.ok(new IpPolicy('any').allows('192.168.0.1'))
})

t.test('IPv6 segments parse every spelling', async (t) => {
  t.same(v6Segments('::1'), [0, 0, 0, 0, 0, 0, 0, 1])
  t.same(v6Segments('2001:db8::8:800:200c:417a'), [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a])
  t.same(v6Segments('::ffff:192.168.0.1'), [0, 0, 0, 0, 0, 0xffff, 0xc0a8, 1])
  t.same(v6Segments('fe80::1%eth0'), [0xfe80, 0, 0, 0, 0, 0, 0, 1])
  t.notOk(isGlobalV6(v6Segments('fe80::1%eth0')))
})

const settings = (url: string) => ({ source: 'rest', url, dimensions: 8, request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } })

t.test('connections to loopback: refused by default, allowed by 127.0.0.0/8 or any', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(() => server.close())
  const urls = [`${server.url}/single`, `${server.url.replace('127.0.0.1', 'localhost')}/single`]
  for (const url of urls) {
    const refused = await createEmbedder('rest', settings(url) as never, { retries: 2 })
    await t.rejects(refused.embedDocuments(['x']), {
      code: 'vector_embedding_error',
      message: 'While embedding documents for embedder `rest`: runtime error: could not reach embedding server:\n  - bad uri: Rejected URI',
    }, url)
    t.same(refused.requests.snapshot().total, 1, 'a refusal is not retried')
    await refused.close()
  }
  t.equal(server.requests.length, 0, 'nothing reached the server')
  // `localhost` may resolve to ::1 first: allow both loopbacks.
  for (const allowedIpNetworks of [['127.0.0.0/8', '::1/128'], 'any'] as EmbedderRuntime['allowedIpNetworks'][]) {
    for (const url of urls) {
      const allowed = await createEmbedder('rest', settings(url) as never, { allowedIpNetworks })
      t.equal((await allowed.embedDocuments(['x']))[0]!.length, 8, `${url} with ${JSON.stringify(allowedIpNetworks)}`)
      await allowed.close()
    }
  }
  t.equal(server.requests.length, 4)
})

t.test('an allow-list for other networks does not open loopback', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(() => server.close())
  const embedder = await createEmbedder('rest', settings(`${server.url}/single`) as never, { allowedIpNetworks: ['10.0.0.0/8'], retries: 0 })
  await t.rejects(embedder.embedQuery('x'), { message: /bad uri: Rejected URI$/ })
  await embedder.close()
  t.equal(server.requests.length, 0)
})
