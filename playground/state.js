// The page's whole state (the kind chosen, the text, the host typed) as a URL fragment, so that a
// link gives the same page: JSON, compressed with the browser's deflate-raw where it has one
// ("z" then base64url), else as it is ("b" then base64url).

const b64url = (bytes) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const unb64url = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function through(stream, bytes) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/* {kind, text, host} -> the fragment (without '#'). */
export async function encodeState(st) {
  const json = new TextEncoder().encode(JSON.stringify({ k: st.kind, t: st.text, h: st.host }));
  if (typeof CompressionStream === 'function') {
    return `z${b64url(await through(new CompressionStream('deflate-raw'), json))}`;
  }
  return `b${b64url(json)}`;
}

/* The fragment -> {kind, text, host}, or null when it holds no state. */
export async function decodeState(hash) {
  try {
    let bytes = unb64url(hash.slice(1));
    if (hash[0] === 'z') bytes = await through(new DecompressionStream('deflate-raw'), bytes);
    else if (hash[0] !== 'b') return null;
    const o = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof o.t !== 'string') return null;
    return { kind: String(o.k || 'auto'), text: o.t, host: typeof o.h === 'string' ? o.h : '' };
  } catch (e) {
    return null;
  }
}
