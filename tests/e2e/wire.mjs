// Reading the page's compact snapshot encoding (src/wire.rs) far
// enough to find and copy values in it, for tests and benchmarks that serve
// the page a changed file.
const ABSENT = 0, UNIT = 1, FALSE = 2, TRUE = 3, UINT = 4, NEG = 5, FLOAT = 6, STR = 7, SEQ = 8, MAP = 9, SOME = 10, VARIANT = 11, END = 12, DECIMAL = 13;

/** The index after the LEB128 integer at `at`. */
function afterLeb(bytes, at) {
  while (bytes[at] & 0x80) at++;
  return at + 1;
}

/** The LEB128 integer at `at`. */
export function leb(bytes, at) {
  let value = 0, shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return value;
    shift += 7;
  }
}

/** The index after the value at `at`. */
export function skip(bytes, at) {
  const tag = bytes[at++];
  switch (tag) {
    case ABSENT: case UNIT: case FALSE: case TRUE: return at;
    case UINT: case NEG: return afterLeb(bytes, at);
    case FLOAT: return at + 8;
    case DECIMAL: return afterLeb(bytes, at + 1);
    case STR: return afterLeb(bytes, at) + leb(bytes, at);
    case SOME: return skip(bytes, at);
    case VARIANT: return skip(bytes, afterLeb(bytes, at));
    case SEQ: case MAP:
      while (bytes[at] !== END) at = skip(bytes, at);
      return at + 1;
    default: throw new Error(`unknown tag ${tag} at ${at - 1}`);
  }
}

/** The [start, end) ranges of the items of the list or struct at `at`. */
export function items(bytes, at) {
  if (bytes[at] !== SEQ) throw new Error(`no list at ${at}`);
  const ranges = [];
  for (at += 1; bytes[at] !== END; ) {
    const end = skip(bytes, at);
    ranges.push([at, end]);
    at = end;
  }
  return ranges;
}

/** A snapshot file (offers.bin) with its offers list replaced by `offers` (byte ranges of `bytes`), in order. */
export function withOffers(bytes, offers) {
  const fields = items(bytes, 0);
  // Snapshot's fields: schema_version, snapshot_date, sources, providers, offers, fabrics.
  const [start, end] = fields[4];
  const list = [Uint8Array.of(SEQ), ...offers.map(([s, e]) => bytes.subarray(s, e)), Uint8Array.of(END)];
  return Buffer.concat([bytes.subarray(0, start), ...list, bytes.subarray(end)]);
}

/** The offers' byte ranges in a snapshot file. */
export const offerRanges = (bytes) => items(bytes, items(bytes, 0)[4][0]);

/** A file whose leading version (the first field, one LEB128 byte) is `version`. */
export function withVersion(bytes, version) {
  if (bytes[0] !== SEQ || bytes[1] !== UINT || bytes[2] & 0x80 || version > 127) throw new Error('no one-byte version to change');
  const copy = Buffer.from(bytes);
  copy[2] = version;
  return copy;
}
