/**
 * The access check runs before any body is read: a client without a key cannot make the server take in, buffer or
 * parse a body. A huge declared body and an endless chunked one to a guarded route are refused with 401 while they
 * are still being sent, on both adapters, and the server goes on serving.
 */
import t from 'tap'
import { connect } from 'node:net'
import { authServerFor, MASTER_KEY } from './auth-server.js'

/** Send the head and then body bytes until the response's status line arrives (or `limit` bytes were sent). */
function upload(port: number, head: string, chunked: boolean, limit: number): Promise<{ status: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let sent = 0
    let answer = ''
    let done = false
    const chunk = Buffer.alloc(16 * 1024, 'a')
    const finish = (status: string) => { if (done) return; done = true; socket.destroy(); resolve({ status, sent }) }
    socket.on('data', (d) => { answer += d.toString('latin1'); const line = answer.split('\r\n')[0]!; if (answer.includes('\r\n')) finish(line) })
    socket.on('error', (e) => (done ? undefined : reject(e)))
    socket.on('close', () => finish(answer.split('\r\n')[0] ?? ''))
    socket.write(head)
    const pump = () => {
      while (!done && sent < limit) {
        const piece = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk
        sent += chunk.length
        if (!socket.write(piece)) { socket.once('drain', pump); return }
      }
    }
    setTimeout(pump, 20)
  })
}

for (const adapter of ['uws', 'node'] as const) {
  t.test(`${adapter}: refused before the body is read`, async (t) => {
    const server = await authServerFor(t, { adapter })
    const declared = 'POST /indexes/movies/documents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500000000\r\n\r\n'
    const huge = await upload(server.port, declared, false, 64 * 1024 * 1024)
    t.equal(huge.status, 'HTTP/1.1 401 Unauthorized', 'a 500 MB body: 401')
    t.ok(huge.sent < 64 * 1024 * 1024, `answered after ${huge.sent} bytes of 500 MB`)
    const endless = 'PATCH /indexes/movies/settings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
    const chunked = await upload(server.port, endless, true, 64 * 1024 * 1024)
    t.equal(chunked.status, 'HTTP/1.1 401 Unauthorized', 'an endless chunked body: 401')
    const wrongKey = 'PUT /indexes/movies/documents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer not-a-key\r\nContent-Type: application/json\r\nContent-Length: 500000000\r\n\r\n'
    t.equal((await upload(server.port, wrongKey, false, 64 * 1024 * 1024)).status, 'HTTP/1.1 403 Forbidden', 'a wrong key: 403, body unread')
    t.equal((await server.as(MASTER_KEY, '/indexes')).status, 200, 'the server goes on serving')
    t.same((await server.as(MASTER_KEY, '/tasks')).body.results, [], 'and nothing was registered')
  })
}
