"""The vocabulary of document kinds and file formats (DESIGN.md §6): packs, manifests and builders use it."""

from __future__ import annotations

from enum import StrEnum


class DocumentKind(StrEnum):
    """What a document in a packet is, independent of its format.

    Packs name these in their rules. A kind the law requires but no builder in
    `generator/documents/` makes (the utility-bill insert) is named for the clerk to give by
    hand (PLAN007).
    """

    NEWSPAPER_NOTICE = "newspaper_notice"
    AGENDA_NOTICE = "agenda_notice"  # one notice of every case an agenda hears
    DISPLAY_AD = "display_ad"
    LETTERS = "letters"
    LABELS = "labels"
    MAILING_LIST = "mailing_list"
    FIRM_MAILING_LIST = "firm_mailing_list"
    SIGN = "sign"
    WEBSITE_NOTICE = "website_notice"
    POSTING_NOTICE = "posting_notice"
    UTILITY_INSERT = "utility_insert"
    TRANSMITTAL = "transmittal"
    AFFIDAVIT_OF_MAILING = "affidavit_of_mailing"
    CERTIFICATE_OF_MAILING = "certificate_of_mailing"
    CERTIFICATE_OF_ACTUAL_NOTICE = "certificate_of_actual_notice"
    AFFIDAVIT_OF_PUBLICATION = "affidavit_of_publication"
    INSERTION_ORDER = "insertion_order"
    CERTIFICATE_OF_POSTING = "certificate_of_posting"
    SUFFICIENCY_CERTIFICATE = "sufficiency_certificate"
    SCHEDULE = "schedule"
    RECIPIENTS = "recipients"
    MAP = "map"
    LINT_REPORT = "lint_report"


class Format(StrEnum):
    """A file format, named by its extension."""

    TXT = "txt"
    HTML = "html"
    PDF = "pdf"
    DOCX = "docx"
    CSV = "csv"
    GEOJSON = "geojson"
    ICS = "ics"
    EML = "eml"
    JSON = "json"
    SVG = "svg"
    PNG = "png"
    JPG = "jpg"
