/** A thread for shared-reads.test.ts: reads documents 1 and 2 of index 5 through the handle it is given. */
import { parentPort, workerData } from 'node:worker_threads'
import { SharedDocumentReader } from '../../../engine/storage/shared-reads.js'

const reader = await SharedDocumentReader.open(workerData.reads)
const read = reader.read(5, workerData.epoch, [1, 2])
parentPort!.postMessage(read && Buffer.from(read.bytes).toString())
