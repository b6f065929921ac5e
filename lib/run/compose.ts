/**
 * The chain as one stream: `compose(...transforms)` joins object-mode stages into a single Duplex
 * (writes go to the first, reads come from the last, an error in any destroys the whole), so a
 * library user hands one stream to `stream.pipeline` instead of wiring eleven.
 */
import { Duplex, type Transform } from 'node:stream';

/** Joins transforms, first to last, into one Duplex. */
export function compose(...streams: Transform[]): Duplex {
  const head = streams[0];
  const tail = streams.at(-1);
  if (!head || !tail) throw new Error('compose needs at least one stream');
  for (let i = 1; i < streams.length; i++) streams[i - 1]!.pipe(streams[i]!);
  const duplex = new Duplex({
    writableObjectMode: head.writableObjectMode,
    readableObjectMode: tail.readableObjectMode,
    write(chunk: unknown, encoding, callback) {
      head.write(chunk, encoding, callback);
    },
    final(callback) {
      head.end();
      callback();
    },
    read() {
      tail.resume();
    },
    destroy(error, callback) {
      for (const stream of streams) stream.destroy();
      callback(error);
    },
  });
  tail.on('data', (chunk: unknown) => {
    if (!duplex.push(chunk)) tail.pause();
  });
  tail.on('end', () => duplex.push(null));
  for (const stream of streams) stream.on('error', (error) => duplex.destroy(error));
  return duplex;
}
