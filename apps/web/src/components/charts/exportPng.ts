/**
 * A chart's SVG as a PNG download (the product's export of Company Wide Pulse). The SVG is drawn on a
 * canvas through an <img>, so it must stand alone: explicit size, its font and colours in
 * attributes (the charts write them so), and a background, so dark mode stays readable.
 */
export function standaloneSvg(svg: SVGSVGElement, background: string): { markup: string; width: number; height: number } {
  const { width, height } = svg.getBoundingClientRect();
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const fill = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  fill.setAttribute('width', '100%');
  fill.setAttribute('height', '100%');
  fill.setAttribute('fill', background);
  copy.insertBefore(fill, copy.firstChild);
  return { markup: new XMLSerializer().serializeToString(copy), width, height };
}

export async function downloadSvgAsPng(svg: SVGSVGElement | null, fileName: string, background: string, pixelRatio = 2): Promise<void> {
  if (!svg) return;
  const { markup, width, height } = standaloneSvg(svg, background);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * pixelRatio);
  canvas.height = Math.round(height * pixelRatio);
  const context = canvas.getContext('2d');
  if (!context) return;
  context.scale(pixelRatio, pixelRatio);
  context.drawImage(image, 0, 0, width, height);
  const a = document.createElement('a');
  a.href = canvas.toDataURL('image/png');
  a.download = fileName;
  a.click();
}
