import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A raw connection to a listening `app`, with what the server sent on it and whether it has closed: for requests
 * written in parts (a body still arriving when the process stops), which an HTTP client cannot send.
 */
export async function rawConnection(app: NestFastifyApplication): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, closed };
}
