import { DEVICE_TYPES, PRODUCT_NAME, type ReportContent } from '@vigil/contracts';
import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { formatDuration, maintenanceText, periodText } from './periods.ts';

export { formatDuration };

/**
 * A report as a PDF a service company can send to its customer: a branded header, the period,
 * headline figures, cases by status, a bar chart of the daily online share (vector shapes),
 * reliability against the goal and the devices with the most offline time. A4, page numbers
 * in the footer.
 */

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
/**
 * DejaVu Sans (embedded, subset) where the system has it, so names in Greek, Cyrillic or with
 * accents print right; otherwise the built-in Helvetica, whose WinAnsi encoding cannot show other
 * characters, so those are replaced by '?' rather than printed as garbage.
 */
const FONT =
  existsSync(`${DEJAVU}/DejaVuSans.ttf`) && existsSync(`${DEJAVU}/DejaVuSans-Bold.ttf`)
    ? { regular: `${DEJAVU}/DejaVuSans.ttf`, bold: `${DEJAVU}/DejaVuSans-Bold.ttf`, unicode: true }
    : { regular: 'Helvetica', bold: 'Helvetica-Bold', unicode: false };

const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** Text from users (portal, tenant and device names) as the chosen font can print it. */
export function printable(text: string, unicode = FONT.unicode): string {
  if (unicode) return text;
  return [...text].map((c) => (/[\x20-\x7e\xa0-\xff]/.test(c) || WIN_ANSI_EXTRA.includes(c) ? c : '?')).join('');
}

/** The product's colours (the web app's teal brand and its status colours, darkened for print). */
export const COLORS = {
  brand: '#0f766e',
  ink: '#111827',
  muted: '#6b7280',
  line: '#e5e7eb',
  good: '#389e0d',
  bad: '#cf1322',
  bar: '#14b8a6',
  soft: '#f0fdfa',
};
const MARGIN = 50;

type Doc = PDFKit.PDFDocument;

const contentWidth = (doc: Doc) => doc.page.width - 2 * MARGIN;

function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN - 20) doc.addPage();
}

function header(doc: Doc, content: ReportContent, tenantName: string): void {
  doc.rect(0, 0, doc.page.width, 70).fill(COLORS.brand);
  doc.fillColor('#ffffff').font(FONT.bold).fontSize(24).text(PRODUCT_NAME, MARGIN, 22);
  doc
    .font(FONT.regular)
    .fontSize(11)
    .text('Service report', MARGIN, 32, { width: contentWidth(doc), align: 'right' });
  doc
    .fillColor(COLORS.ink)
    .font(FONT.bold)
    .fontSize(20)
    .text(printable(content.portal.name), MARGIN, 95, { width: contentWidth(doc) });
  doc.font(FONT.regular).fontSize(11).fillColor(COLORS.muted);
  doc.text(`${content.period.label}: ${periodText(content.period)}`);
  if (tenantName) doc.text(`Prepared by ${printable(tenantName)}`);
  doc.text(`Generated ${content.generatedAt.replace('T', ' ').slice(0, 16)} UTC`);
  doc.moveDown(1);
}

function sectionTitle(doc: Doc, title: string, needed: number): void {
  ensureSpace(doc, needed + 30);
  doc.moveDown(0.5);
  doc.fillColor(COLORS.ink).font(FONT.bold).fontSize(14).text(title, MARGIN);
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .lineWidth(1)
    .strokeColor(COLORS.line)
    .stroke();
  doc.y = y + 8;
}

/** Headline figures as a row of boxes. */
function figures(doc: Doc, items: { label: string; value: string; color?: string }[]): void {
  if (items.length === 0) return;
  ensureSpace(doc, 70);
  const gap = 10;
  const w = (contentWidth(doc) - gap * (items.length - 1)) / items.length;
  const y = doc.y;
  items.forEach((item, i) => {
    const x = MARGIN + i * (w + gap);
    doc.roundedRect(x, y, w, 58, 6).fill(COLORS.soft);
    doc
      .fillColor(item.color ?? COLORS.ink)
      .font(FONT.bold)
      .fontSize(18)
      .text(item.value, x, y + 10, { width: w, align: 'center' });
    doc
      .fillColor(COLORS.muted)
      .font(FONT.regular)
      .fontSize(9)
      .text(item.label, x, y + 36, { width: w, align: 'center' });
  });
  doc.y = y + 70;
  doc.x = MARGIN;
}

/** A simple table with a shaded header row; `widths` are fractions of the content width. */
function table(doc: Doc, headers: string[], rows: string[][], widths: number[], align: ('left' | 'right')[]): void {
  const total = contentWidth(doc);
  const rowHeight = 18;
  const drawRow = (cells: string[], bold: boolean, shade: string | null) => {
    const page = doc.page;
    ensureSpace(doc, rowHeight);
    // A table continued on a new page repeats its header row.
    if (doc.page !== page && !bold) drawRow(headers, true, COLORS.soft);
    const y = doc.y;
    if (shade) doc.rect(MARGIN, y, total, rowHeight).fill(shade);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const w = total * widths[i];
      doc
        .fillColor(COLORS.ink)
        .font(bold ? FONT.bold : FONT.regular)
        .fontSize(10);
      doc.text(cell, x + 6, y + 5, { width: w - 12, align: align[i] ?? 'left', lineBreak: false, ellipsis: true });
      x += w;
    });
    doc
      .moveTo(MARGIN, y + rowHeight)
      .lineTo(MARGIN + total, y + rowHeight)
      .lineWidth(0.5)
      .strokeColor(COLORS.line)
      .stroke();
    doc.y = y + rowHeight;
  };
  drawRow(headers, true, COLORS.soft);
  if (rows.length === 0) drawRow(['No data for this period', ...headers.slice(1).map(() => '')], false, null);
  for (const row of rows) drawRow(row, false, null);
  doc.x = MARGIN;
  doc.moveDown(0.5);
}

/** Daily online share as vertical bars on a 0..100 % axis; days without data show no bar. */
function dailyChart(doc: Doc, daily: { date: string; onlineShare: number }[]): void {
  const height = 140;
  ensureSpace(doc, height + 30);
  const top = doc.y + 5;
  const left = MARGIN + 30;
  const width = contentWidth(doc) - 30;
  doc.font(FONT.regular).fontSize(8).fillColor(COLORS.muted);
  for (const pct of [0, 25, 50, 75, 100]) {
    const y = top + height - (height * pct) / 100;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor(COLORS.line)
      .stroke();
    doc.fillColor(COLORS.muted).text(`${pct}%`, MARGIN, y - 4, { width: 26, align: 'right', lineBreak: false });
  }
  const slot = daily.length > 0 ? width / daily.length : width;
  const barWidth = Math.max(0.8, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(daily.length / 8));
  daily.forEach((d, i) => {
    const x = left + i * slot + (slot - barWidth) / 2;
    if (d.onlineShare >= 0) {
      const h = (height * d.onlineShare) / 100;
      doc.rect(x, top + height - h, barWidth, h).fill(d.onlineShare >= 50 ? COLORS.bar : COLORS.bad);
    }
    if (i % labelEvery === 0) {
      doc
        .fillColor(COLORS.muted)
        .fontSize(7)
        .text(d.date.slice(5), left + i * slot - 10, top + height + 4, { width: Math.max(slot, 20) + 20, align: 'left', lineBreak: false });
    }
  });
  doc.y = top + height + 20;
  doc.x = MARGIN;
}

/** A bar from 0 to 100 % filled to the score, with a marker at the goal. */
function scoreBar(doc: Doc, score: number, goal: number, meetsGoal: boolean): void {
  ensureSpace(doc, 50);
  const y = doc.y + 4;
  const width = contentWidth(doc);
  doc.roundedRect(MARGIN, y, width, 16, 8).fill(COLORS.soft);
  if (score > 0) doc.roundedRect(MARGIN, y, (width * Math.min(score, 100)) / 100, 16, 8).fill(meetsGoal ? COLORS.good : COLORS.bad);
  const gx = MARGIN + (width * Math.min(goal, 100)) / 100;
  doc
    .moveTo(gx, y - 4)
    .lineTo(gx, y + 20)
    .lineWidth(2)
    .strokeColor(COLORS.ink)
    .stroke();
  doc
    .fillColor(COLORS.muted)
    .font(FONT.regular)
    .fontSize(9)
    .text(`goal ${goal}%`, gx - 40, y + 22, { width: 80, align: 'center', lineBreak: false });
  doc.y = y + 40;
  doc.x = MARGIN;
}

const pct = (score: number) => (score < 0 ? 'n/a' : `${score.toFixed(1)}%`);

function body(doc: Doc, content: ReportContent): void {
  const headline: { label: string; value: string; color?: string }[] = [];
  if (content.openCases) headline.push({ label: 'Open cases', value: String(content.openCases.openAtEnd) });
  if (content.portalPulse) {
    headline.push({ label: 'Devices online', value: String(content.portalPulse.onlineCount), color: COLORS.good });
    headline.push({
      label: 'Devices offline',
      value: String(content.portalPulse.offlineCount),
      color: content.portalPulse.offlineCount > 0 ? COLORS.bad : COLORS.ink,
    });
  }
  if (content.reliability)
    headline.push({
      label: 'Reliability score',
      value: pct(content.reliability.score),
      color: content.reliability.meetsGoal ? COLORS.good : COLORS.bad,
    });
  figures(doc, headline);

  if (content.openCases) {
    const c = content.openCases;
    sectionTitle(doc, 'Cases by status', 130);
    table(
      doc,
      ['Status', 'Cases'],
      c.byStatus.map((s) => [s.status, String(s.count)]),
      [0.7, 0.3],
      ['left', 'right'],
    );
    doc
      .fillColor(COLORS.muted)
      .font(FONT.regular)
      .fontSize(10)
      .text(
        `Opened in this period: ${c.openedInPeriod}    Completed in this period: ${c.completedInPeriod}    Open now: ${c.openAtEnd}`,
        MARGIN,
      );
  }
  if (content.portalPulse) {
    sectionTitle(doc, 'Portal pulse: daily online share', 170);
    dailyChart(doc, content.portalPulse.daily);
  }
  if (content.reliability) {
    const r = content.reliability;
    const maintenance = maintenanceText(r.maintenanceSeconds);
    sectionTitle(doc, 'Reliability', maintenance ? 96 : 80);
    doc
      .fillColor(COLORS.ink)
      .font(FONT.regular)
      .fontSize(11)
      .text(
        `Score ${pct(r.score)} against a goal of ${r.goal}%: ${r.score < 0 ? 'no devices observed in this period.' : r.meetsGoal ? 'goal met.' : 'below goal.'}`,
        MARGIN,
      );
    // Why the score may differ from plain online time: maintenance windows' time is not observed.
    if (maintenance) doc.fillColor(COLORS.muted).fontSize(10).text(maintenance, MARGIN);
    scoreBar(doc, r.score, r.goal, r.meetsGoal);
    sectionTitle(doc, 'Devices with the most offline time', 4 * 18);
    table(
      doc,
      ['Device', 'Type', 'Offline time'],
      r.topOfflineDevices.map((d) => [printable(d.name), DEVICE_TYPES[d.deviceType] ?? 'Unknown', formatDuration(d.offlineSeconds)]),
      [0.5, 0.25, 0.25],
      ['left', 'left', 'right'],
    );
  }
}

function footers(doc: Doc): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 10;
    doc
      .fillColor(COLORS.muted)
      .font(FONT.regular)
      .fontSize(8)
      .text(`${PRODUCT_NAME} · page ${i + 1} of ${range.count}`, MARGIN, y, {
        width: contentWidth(doc),
        align: 'center',
        lineBreak: false,
      });
  }
}

export function reportPdf(content: ReportContent, tenantName: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${content.portal.name}: ${content.period.label}`, Author: tenantName || PRODUCT_NAME, Creator: PRODUCT_NAME },
  });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    header(doc, content, tenantName);
    body(doc, content);
    footers(doc);
    doc.end();
  });
}
