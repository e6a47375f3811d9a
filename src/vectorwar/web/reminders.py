"""Reminders that reach a player away from the game's tab: e-mail through SMTP, and a webhook.

The operator configures the SMTP server (``vectorwar serve --smtp-host ...`` or the
``VECTORWAR_SMTP_*`` variables) and whether webhooks may be posted at all; each
player gives their own address and webhook URL for their side. A failed send is
logged and never stops the game: a reminder is a courtesy, the deadline holds anyway.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import urlsplit

import httpx

log = logging.getLogger("vectorwar.web")

#: Seconds one send (an SMTP session, a webhook POST) may take before it is given up.
SEND_TIMEOUT = 10.0
EMAIL_MAX = 320
WEBHOOK_MAX = 2000
#: An address as mail servers take it: no spaces, one @, a dot in the domain. Deliberately plain.
_EMAIL = re.compile(r"[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+")


class ContactRefused(ValueError):
    """An e-mail address or webhook URL the server will not send to."""


def check_email(address: str) -> str:
    """``address`` if mail can be sent to it ("" for none); raises :class:`ContactRefused`."""
    if address == "":
        return ""
    if len(address) > EMAIL_MAX or not _EMAIL.fullmatch(address):
        raise ContactRefused(f"{address[:60]!r} is not an e-mail address (name@example.org)")
    return address


def check_webhook(url: str, allowed: bool) -> str:
    """``url`` if a webhook may be posted to it ("" for none); raises :class:`ContactRefused`."""
    if url == "":
        return ""
    if not allowed:
        raise ContactRefused("this server sends no webhooks (its operator has not turned them on)")
    parts = urlsplit(url)
    if len(url) > WEBHOOK_MAX or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ContactRefused("a webhook is an http:// or https:// URL, such as a chat channel's incoming webhook")
    return url


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    """Where the server's mail goes out: the operator's SMTP server."""

    host: str
    sender: str
    port: int = 25
    username: str = ""
    password: str = ""
    #: Upgrade the connection with STARTTLS before logging in (port 587); ``ssl``: TLS from the start (465).
    starttls: bool = False
    ssl: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """The operator's reminder settings: mail (none: no e-mail) and whether players' webhooks are posted."""

    smtp: SmtpSettings | None = None
    webhooks: bool = False
    #: The server's address as players reach it (``https://example.org``), for the link in each message.
    public_url: str = ""


@dataclass(frozen=True, slots=True)
class Note:
    """One message to one side's player: a reminder before a deadline, or a notice that a computer took over."""

    kind: str  # "reminder" or "takeover"
    game: str
    side: str
    subject: str
    text: str

    @property
    def path(self) -> str:
        # The game's page; the player's own link carries their token, which the server never keeps.
        return f"/games/{self.game}"


class Sender:
    """Sends :class:`Note` s by e-mail and webhook, as the operator's :class:`Settings` allow."""

    def __init__(self, settings: Settings, http: httpx.AsyncClient | None = None) -> None:
        self.settings = settings
        self._http = http

    async def send(self, note: Note, email: str, webhook: str) -> list[str]:
        """Send ``note`` to whichever of ``email`` and ``webhook`` are given; answers the channels that took it."""
        sent = []
        if email and self.settings.smtp is not None:
            try:
                await asyncio.to_thread(_mail, self.settings.smtp, email, note, self.link(note))
                sent.append("e-mail")
            except (OSError, smtplib.SMTPException) as err:
                log.warning("game %s: the e-mail to %s's player failed: %s", note.game, note.side, err)
        if webhook and self.settings.webhooks:
            try:
                await self._post(webhook, note)
                sent.append("webhook")
            except httpx.HTTPError as err:
                log.warning("game %s: the webhook of %s's player failed: %s", note.game, note.side, err)
        return sent

    def link(self, note: Note) -> str:
        return self.settings.public_url.rstrip("/") + note.path

    async def _post(self, url: str, note: Note) -> None:
        words = f"{note.subject}\n{note.text}\n{self.link(note)}"
        # "text" is what Slack and Mattermost show, "content" Discord's; the rest is for programs.
        body = {"text": words, "content": words, "kind": note.kind, "game": note.game, "side": note.side}
        if self._http is not None:
            answer = await self._http.post(url, json=body, timeout=SEND_TIMEOUT)
        else:
            async with httpx.AsyncClient(timeout=SEND_TIMEOUT, follow_redirects=False) as client:
                answer = await client.post(url, json=body)
        answer.raise_for_status()


def _mail(smtp: SmtpSettings, to: str, note: Note, link: str) -> None:
    message = EmailMessage()
    message["From"] = smtp.sender
    message["To"] = to
    message["Subject"] = note.subject
    message.set_content(f"{note.text}\n\n{link}\n")
    connect = smtplib.SMTP_SSL if smtp.ssl else smtplib.SMTP
    with connect(smtp.host, smtp.port, timeout=SEND_TIMEOUT) as server:
        if smtp.starttls and not smtp.ssl:
            server.starttls()
        if smtp.username:
            server.login(smtp.username, smtp.password)
        server.send_message(message)
