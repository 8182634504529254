/**
 * The image flood, in its own process: `connections` loops each asking for a 4096-pixel PNG as fast as answers
 * come, every request a different image (size, margin, ecc) so none is served from a cache or a 304.
 * Usage: tsx scripts/bench/image-flooder.ts <image url without query> <api key> <connections> <seconds>;
 * prints one JSON line: images answered per second and the count of each status.
 */
const [url, apiKey, connections, seconds] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4]), Number(process.argv[5])];
const ECC = ['L', 'M', 'Q', 'H'];
const statusCounts: Record<string, number> = {};
let next = 0;
const until = Date.now() + seconds * 1000;

async function loop(): Promise<void> {
  while (Date.now() < until) {
    const i = next++;
    const query = `format=png&size=${4096 - (i % 1000)}&margin=${Math.floor(i / 1000) % 17}&ecc=${ECC[Math.floor(i / 17_000) % 4]}`;
    try {
      const res = await fetch(`${url}?${query}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      await res.arrayBuffer();
      statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
    } catch {
      statusCounts.error = (statusCounts.error ?? 0) + 1;
    }
  }
}

await Promise.all(Array.from({ length: connections }, loop));
process.stdout.write(`${JSON.stringify({ imagesPerSecond: (statusCounts['200'] ?? 0) / seconds, statusCounts })}\n`);
