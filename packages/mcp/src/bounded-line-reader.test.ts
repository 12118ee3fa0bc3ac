import { describe, expect, it } from 'vitest';
import { BoundedLineReader, type DroppedLine } from './bounded-line-reader.js';

function reader(maxLineBytes: number) {
  const lines: string[] = [];
  const dropped: DroppedLine[] = [];
  const lineReader = new BoundedLineReader(maxLineBytes, {
    line: (line) => lines.push(line.toString()),
    dropped: (line) => dropped.push(line),
  });
  return { lineReader, lines, dropped };
}

describe('BoundedLineReader', () => {
  it('splits lines across chunks and skips empty ones', () => {
    const { lineReader, lines } = reader(100);
    for (const chunk of ['{"a":', '1}\n{"b"', ':2}\n\n{"c":3}\n{"d"']) lineReader.push(Buffer.from(chunk));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    lineReader.push(Buffer.from(':4}\n'));
    expect(lines.at(-1)).toBe('{"d":4}');
  });

  it('drops a line over the limit as it arrives, keeping its first and last 256 bytes, and goes on with the next', () => {
    const { lineReader, lines, dropped } = reader(1000);
    lineReader.push(Buffer.from(`{"id":7,"text":"${'x'.repeat(600)}`));
    for (let index = 0; index < 50; index++) lineReader.push(Buffer.from('y'.repeat(100)));
    lineReader.push(Buffer.from('"}\n{"ok":true}\n'));
    expect(dropped).toHaveLength(1);
    const [line] = dropped as [DroppedLine];
    expect(line.bytes).toBe(16 + 600 + 5000 + 2);
    expect(line.head.toString()).toBe(`{"id":7,"text":"${'x'.repeat(240)}`);
    expect(line.tail.toString()).toBe(`${'y'.repeat(254)}"}`);
    expect(lines).toEqual(['{"ok":true}']);
  });

  it('accepts a line of exactly the limit', () => {
    const { lineReader, lines, dropped } = reader(10);
    lineReader.push(Buffer.from('0123456789\n01234567890\n'));
    expect(lines).toEqual(['0123456789']);
    expect(dropped.map((line) => line.bytes)).toEqual([11]);
  });
});
