import nodemailer from 'nodemailer'
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink'

describe('smtp-sink fixture', () => {
  let sink: SmtpSink

  beforeAll(async () => {
    sink = await startSmtpSink()
  })
  afterAll(async () => {
    await sink.close()
  })
  beforeEach(() => sink.clear())

  it('receives a plain-text mail with a long URL line (quoted-printable) via an smtp:// URL', async () => {
    const transport = nodemailer.createTransport(sink.url)
    const link = `http://127.0.0.1:3000/verify-email?token=${'a1b2c3d4'.repeat(16)}&next=%2Fdashboard`
    const text = `Hello Ada,\n\nConfirm your address: ${link}\n\nThanks`
    const info = await transport.sendMail({
      from: 'Impact Narrative Studio <no-reply@example.test>',
      to: 'ada@example.test',
      cc: 'grace@example.test',
      bcc: 'audit@example.test',
      subject: 'Verify your email',
      text,
    })
    transport.close()

    expect(info.accepted).toEqual(['ada@example.test', 'grace@example.test', 'audit@example.test'])
    const mail = await sink.waitForMail((m) => m.subject === 'Verify your email')
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i)
    expect(mail.raw).not.toContain(link) // proves the line really was soft-wrapped on the wire
    expect(mail.text).toBe(text)
    expect(mail.from).toBe('no-reply@example.test')
    expect(mail.to).toEqual(['ada@example.test', 'grace@example.test', 'audit@example.test'])
    expect(mail.headers.from).toBe('Impact Narrative Studio <no-reply@example.test>')
  })

  it('takes the text/plain part of multipart/alternative (options form with ignoreTLS)', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true })
    await transport.sendMail({
      from: 'no-reply@example.test',
      to: ['a@example.test', 'b@example.test'],
      subject: 'Alternatives',
      text: 'Plain body — with an em dash',
      html: '<p>HTML body</p>',
    })
    transport.close()

    const [mail] = sink.messages
    expect(mail.raw).toMatch(/multipart\/alternative/i)
    expect(mail.text).toBe('Plain body — with an em dash')
    expect(mail.html).toBe('<p>HTML body</p>')
    expect(mail.to).toEqual(['a@example.test', 'b@example.test'])
  })

  it('decodes base64 bodies and RFC 2047 UTF-8 subjects', async () => {
    const transport = nodemailer.createTransport(sink.url)
    const subject = 'Ihr Bericht ist fertig ✅ — 影響のストーリー, ready for Zoë and the whole team today'
    const text = 'Grüße aus Köln — 影響のストーリー\nLine two'
    await transport.sendMail({ from: 'no-reply@example.test', to: 'zoe@example.test', subject, text, textEncoding: 'base64' })
    transport.close()

    const mail = await sink.waitForMail((m) => m.to.includes('zoe@example.test'))
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/im)
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: base64/i)
    expect(mail.subject).toBe(subject)
    expect(mail.text).toBe(text)
  })

  it('dot-unstuffs lines that start with a period', async () => {
    const transport = nodemailer.createTransport(sink.url)
    const text = '.hidden line\n..two dots\n.'
    await transport.sendMail({ from: 'x@example.test', to: 'y@example.test', subject: 'dots', text })
    transport.close()
    expect((await sink.waitForMail((m) => m.subject === 'dots')).text).toBe(text)
  })

  it('waitForMail resolves for a mail arriving later and rejects clearly on timeout', async () => {
    const pending = sink.waitForMail((m) => m.subject === 'later', 2000)
    const transport = nodemailer.createTransport(sink.url)
    await transport.sendMail({ from: 'x@example.test', to: 'y@example.test', subject: 'later', text: 'hi' })
    transport.close()
    expect((await pending).text).toBe('hi')

    // At its timeout exactly, on a clock of the test's own: not a moment before, and not at the default 5 s.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let settled = false
      const never = sink.waitForMail((m) => m.subject === 'never', 150)
      never.then(
        () => (settled = true),
        () => (settled = true),
      )
      await vi.advanceTimersByTimeAsync(149)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(settled).toBe(true)
      await expect(never).rejects.toThrow(/waitForMail: no matching mail within 150ms \(received 1: "later"/)
    } finally {
      vi.useRealTimers()
    }
  })
})
