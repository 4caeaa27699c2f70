"""The Board's self-exclusion list file (§ 815a.4) in the project's layout: what is read from
it, every way a file is refused (whole, naming each bad line), the limits on its size, and
the normalised names listed people are matched on (reading:exclusion-list-import). Pure
Python: no database."""

from __future__ import annotations

import ast
import datetime
import hashlib
import sys
from pathlib import Path

import pytest

from portal.players import list_file
from portal.players.list_file import (
    MAX_BYTES,
    MAX_LINES,
    Change,
    ListedPerson,
    ListFile,
    ListFileRefused,
    ListKind,
    Period,
    normalised_name,
    read_list_file,
)
from tests.portal.plain_words import DENIED

pytestmark = pytest.mark.clause("reading:exclusion-list-import", kind="related")

TODAY = datetime.date(2026, 5, 1)
FULL = ListKind.FULL_EDITION
CHANGES = ListKind.CHANGES
HEADER = "surname,given_names,aliases,date_of_birth,ssn_last4,date_listed,period"
CHANGES_HEADER = f"change,{HEADER}"
GOOD = "Doe,John,,1980-01-02,1234,2024-03-04,life"


def csv_bytes(*lines: str, header: str = HEADER) -> bytes:
    return "".join(f"{line}\n" for line in (header, *lines)).encode()


def read(*lines: str, kind: ListKind = FULL, header: str | None = None) -> ListFile:
    header = header if header is not None else (HEADER if kind is FULL else CHANGES_HEADER)
    return read_list_file(csv_bytes(*lines, header=header), kind=kind, today=TODAY)


def refusal(data: bytes, kind: ListKind = FULL) -> list[str]:
    with pytest.raises(ListFileRefused) as refused:
        read_list_file(data, kind=kind, today=TODAY)
    assert str(refused.value).startswith("§ 815a.4: the list file was refused:\n")
    return refused.value.problems


def problems_of(*lines: str, kind: ListKind = FULL, header: str | None = None) -> list[str]:
    header = header if header is not None else (HEADER if kind is FULL else CHANGES_HEADER)
    return refusal(csv_bytes(*lines, header=header), kind)


# What is read ------------------------------------------------------------------------------


def test_815a4_a_full_edition_reads_every_person_with_aliases_and_dates():
    listed = read(
        "O'Brien-Smith,Mary Ann,\"Mary Smith; M. A. O'Brien\",1970-03-04,0042,2020-01-02,5 years",
        "Doe,John,,1980-01-02,,2024-03-04,LIFE",
        '"Lee, Jr.",Sam,Sammy Lee,1991-12-31,9999,2026-05-01, 1 Year ',
    )
    assert listed.kind is FULL
    assert listed.people == (
        ListedPerson(
            line=2,
            change=None,
            surname="O'Brien-Smith",
            given_names="Mary Ann",
            aliases=("Mary Smith", "M. A. O'Brien"),
            date_of_birth=datetime.date(1970, 3, 4),
            ssn_last4="0042",
            date_listed=datetime.date(2020, 1, 2),
            period=Period.FIVE_YEARS,
        ),
        ListedPerson(
            line=3,
            change=None,
            surname="Doe",
            given_names="John",
            aliases=(),
            date_of_birth=datetime.date(1980, 1, 2),
            ssn_last4=None,
            date_listed=datetime.date(2024, 3, 4),
            period=Period.LIFE,
        ),
        ListedPerson(
            line=4,
            change=None,
            surname="Lee, Jr.",
            given_names="Sam",
            aliases=("Sammy Lee",),
            date_of_birth=datetime.date(1991, 12, 31),
            ssn_last4="9999",
            date_listed=datetime.date(2026, 5, 1),
            period=Period.ONE_YEAR,
        ),
    )


def test_815a4_a_file_of_additions_and_removals_reads_each_change_in_any_case():
    listed = read(
        "add,Doe,John,,1980-01-02,,2024-03-04,life",
        " REMOVE ,Roe,Jane,,1975-06-07,,2021-02-03,1 year",
        kind=CHANGES,
    )
    assert listed.kind is CHANGES
    assert [(p.line, p.change, p.surname) for p in listed.people] == [
        (2, Change.ADD, "Doe"),
        (3, Change.REMOVE, "Roe"),
    ]


def test_815a4_the_header_ignores_capitals_and_spaces_around_column_names():
    header = " Surname , GIVEN_NAMES,Aliases,date_of_birth ,SSN_LAST4,Date_Listed,  PERIOD"
    assert read(GOOD, header=header).people[0].surname == "Doe"
    assert read(f"add,{GOOD}", kind=CHANGES, header=f" CHANGE ,{header}").people[0].change == "add"


def test_815a4_standard_csv_quoting_reads_commas_and_doubled_quotes_inside_a_value():
    person = read('"Smith, ""Jr""",Ann,"A, B; C",1980-01-02,,2024-03-04,life').people[0]
    assert person.surname == 'Smith, "Jr"'
    assert person.aliases == ("A, B", "C")


def test_815a4_empty_lines_and_a_spreadsheets_empty_rows_are_skipped():
    listed = read("", GOOD, " , ,,,,, ", "", "Roe,Jane,,1975-06-07,,2021-02-03,1 year", "")
    assert [p.line for p in listed.people] == [3, 6]


def test_815a4_empty_aliases_between_semicolons_are_skipped():
    person = read("Doe,John, ; Johnny D ;; J. Doe; ,1980-01-02,,2024-03-04,life").people[0]
    assert person.aliases == ("Johnny D", "J. Doe")


def test_815a4_a_byte_order_mark_before_the_header_is_accepted_and_lines_count_as_before():
    data = b"\xef\xbb\xbf" + csv_bytes(GOOD, "Roe,Jane,,1975-06-07,,2030-01-01,life")
    assert refusal(data) == [
        "line 3: the date listed 2030-01-01 is in the future (today is 2026-05-01)"
    ]
    assert read_list_file(b"\xef\xbb\xbf" + csv_bytes(GOOD), kind=FULL, today=TODAY).people


@pytest.mark.parametrize("end", [b"\r\n", b"\r"])
def test_815a4_windows_and_old_mac_line_ends_count_lines_as_a_person_does(end):
    data = end.join([HEADER.encode(), GOOD.encode(), b"Doe,Jane,,1980-13-01,,2024-03-04,life"])
    assert refusal(data) == [
        "line 3: the date of birth 1980-13-01 is not a real date; write it as YYYY-MM-DD"
    ]


def test_815a4_a_date_of_birth_on_the_date_listed_and_dates_of_today_are_accepted():
    person = read("Doe,John,,2026-05-01,,2026-05-01,life").people[0]
    assert person.date_of_birth == person.date_listed == TODAY


# Refused whole, naming each bad line --------------------------------------------------------


def test_815a4_a_malformed_file_is_refused_whole_naming_each_bad_line():
    problems = problems_of(
        GOOD,
        "Roe,Jane,,1975-06-07,,2021-02-03,life",
        "Poe,Ed,,1990-02-30,,2021-02-03,life",
        "Moe,Al,,1985-01-01,,2021-02-03,2 years",
        "Zoe,Bo,,1985-01-01,,2021-02-03,life",
        "Joe,Cy,,1985-01-01,12,2021-02-03",
    )
    assert problems == [
        "line 4: the date of birth 1990-02-30 is not a real date; write it as YYYY-MM-DD",
        "line 5: the period '2 years' is not one of 1 year, 5 years or life",
        "line 7: it has 6 values but a line of a full edition has 7 (surname, given names, "
        "aliases, date of birth, SSN last four, date listed, period); a comma inside a name "
        "must be within double quotes",
    ]


def test_815a4_a_line_with_several_problems_has_each_named():
    problems = problems_of(",John,,1980-01-02,123,2030-01-01,forever")
    assert problems == [
        "line 2: the surname column is empty",
        "line 2: the date listed 2030-01-01 is in the future (today is 2026-05-01)",
        "line 2: the last four digits of the Social Security number must be exactly four "
        "digits, or left empty",
        "line 2: the period 'forever' is not one of 1 year, 5 years or life",
    ]


def test_815a4_the_refusal_cites_the_clause_once_then_each_problem_on_its_own_line():
    with pytest.raises(ListFileRefused) as refused:
        read_list_file(
            csv_bytes("Doe,John,,1980-01-02,,2024-03-04,2 years", "Doe,Jo,,x,,2024-03-04,life"),
            kind=FULL,
            today=TODAY,
        )
    assert str(refused.value) == (
        "§ 815a.4: the list file was refused:\n"
        "line 2: the period '2 years' is not one of 1 year, 5 years or life\n"
        "line 3: the date of birth 'x' is not written as YYYY-MM-DD"
    )
    assert str(refused.value).count("§") == 1
    assert refused.value.clause == "815a.4"
    assert isinstance(refused.value, ValueError)


def test_815a4_bytes_that_are_not_utf8_are_refused_naming_each_line_where_decoding_fails():
    data = (
        HEADER.encode()
        + b"\n"
        + "Doe,José,,1980-01-02,,2024-03-04,life\n".encode()
        # Latin-1, as a spreadsheet saving "ANSI" writes it: é is one byte, not UTF-8.
        + "Roe,José,,1980-01-02,,2024-03-04,life\n".encode("latin-1")
        + GOOD.encode()
        + b"\nMoe,Al\xff\xfe,,1980-01-02,,2024-03-04,life\n"
    )
    assert refusal(data) == [
        "line 3: it is not UTF-8 text (the character at position 8 cannot be read); "
        "save the file as CSV in UTF-8 and import it again",
        "line 5: it is not UTF-8 text (the character at position 7 cannot be read); "
        "save the file as CSV in UTF-8 and import it again",
    ]


def test_815a4_the_position_of_a_byte_that_is_not_utf8_counts_characters_not_bytes():
    data = HEADER.encode() + "\nNúñez,Jos".encode() + b"\xe9,,1980-01-02,,2024-03-04,life\n"
    assert refusal(data) == [
        "line 2: it is not UTF-8 text (the character at position 10 cannot be read); "
        "save the file as CSV in UTF-8 and import it again"
    ]


def test_815a4_a_value_over_two_lines_that_are_not_utf8_is_refused_for_its_bytes_alone():
    data = HEADER.encode() + b'\n"Doe\nSm\xffith",John,,1980-01-02,,2024-03-04,life\n'
    assert refusal(data) == [
        "line 3: it is not UTF-8 text (the character at position 3 cannot be read); "
        "save the file as CSV in UTF-8 and import it again"
    ]


def test_815a4_a_header_that_is_not_utf8_is_refused_and_the_lines_are_still_read():
    data = b"surname\xff\n" + csv_bytes("Doe,John,,1980-01-02,,2024-03-04,2 years", header="")[1:]
    assert refusal(data) == [
        "line 1: it is not UTF-8 text (the character at position 8 cannot be read); "
        "save the file as CSV in UTF-8 and import it again",
        "line 2: the period '2 years' is not one of 1 year, 5 years or life",
    ]


FULL_HEADER_WRONG = (
    "line 1: the header of a full edition must be exactly "
    "surname,given_names,aliases,date_of_birth,ssn_last4,date_listed,period "
    "(spaces around a column name and capital letters do not matter)"
)


@pytest.mark.parametrize(
    "header",
    [
        "surname,given_name,aliases,date_of_birth,ssn_last4,date_listed,period",  # misspelt
        "given_names,surname,aliases,date_of_birth,ssn_last4,date_listed,period",  # order
        f"{HEADER},notes",  # a column too many
        "surname,given_names,aliases,date_of_birth,ssn_last4,date_listed",  # one too few
    ],
)
def test_815a4_a_wrong_header_is_refused_saying_which_columns_are_expected(header):
    assert problems_of(GOOD, header=header)[0] == FULL_HEADER_WRONG


def test_815a4_a_missing_header_is_refused_and_the_lines_after_it_are_still_read():
    data = "\n".join([GOOD, "Roe,Jane,,1975-06-07,,2021-02-03,2 years"]).encode()
    assert refusal(data) == [
        FULL_HEADER_WRONG,
        "line 2: the period '2 years' is not one of 1 year, 5 years or life",
    ]


def test_815a4_a_wrong_header_of_additions_and_removals_names_its_change_column():
    assert problems_of(f"add,{GOOD}", kind=CHANGES, header=f"action,{HEADER}") == [
        "line 1: the header of a file of additions and removals must be exactly "
        "change,surname,given_names,aliases,date_of_birth,ssn_last4,date_listed,period "
        "(spaces around a column name and capital letters do not matter)"
    ]


def test_815a4_a_header_of_the_other_kind_of_file_is_refused_saying_how_to_import_it():
    changes_as_full = csv_bytes(f"add,{GOOD}", f"add,{GOOD}", header=CHANGES_HEADER)
    assert refusal(changes_as_full, FULL) == [
        "line 1: this is the header of a file of additions and removals, but the file was "
        "imported as a full edition; import it again as a file of additions and removals"
    ]
    assert refusal(csv_bytes(GOOD), CHANGES) == [
        "line 1: this is the header of a full edition, but the file was imported as a file "
        "of additions and removals; import it again as a full edition"
    ]


def test_815a4_a_line_with_the_wrong_number_of_values_is_refused():
    problems = problems_of(f"add,{GOOD},extra", "add,Doe,John", kind=CHANGES)
    assert problems == [
        "line 2: it has 9 values but a line of a file of additions and removals has 8 (change, "
        "surname, given names, aliases, date of birth, SSN last four, date listed, period); "
        "a comma inside a name must be within double quotes",
        "line 3: it has 3 values but a line of a file of additions and removals has 8 (change, "
        "surname, given names, aliases, date of birth, SSN last four, date listed, period); "
        "a comma inside a name must be within double quotes",
    ]


QUOTES = (
    "its double quotes do not pair up; a value that starts with a double quote must end with "
    'one before the next comma, and a double quote inside it is written twice ("")'
)


def test_815a4_quotes_that_do_not_pair_up_are_refused_on_the_line_and_reading_goes_on():
    problems = problems_of('"Doe"x,John,,1980-01-02,,2024-03-04,life', GOOD, '"Roe,Jane,,x')
    assert problems == [f"line 2: {QUOTES}", f"line 4: {QUOTES}"]


def test_815a4_a_value_too_long_to_read_is_refused_and_reading_goes_on():
    problems = problems_of("x" * 200_000 + ",John", "Doe,Jo,,1980-01-02,,2024-03-04,2 years")
    assert problems == [
        "line 2: it holds a value far longer than any name or date, so it cannot be read",
        "line 3: the period '2 years' is not one of 1 year, 5 years or life",
    ]


@pytest.mark.parametrize("written", ["02/03/1990", "1990-2-3", "19900203", "1990-02-03T00:00"])
def test_815a4_a_date_not_written_as_yyyy_mm_dd_is_refused(written):
    assert problems_of(f"Doe,John,,{written},,2024-03-04,life") == [
        f"line 2: the date of birth '{written}' is not written as YYYY-MM-DD"
    ]


@pytest.mark.parametrize("written", ["1990-02-30", "2023-02-29", "1990-13-01", "0000-01-01"])
def test_815a4_an_impossible_date_is_refused_as_not_a_real_date(written):
    assert problems_of(f"Doe,John,,1980-01-02,,{written},life") == [
        f"line 2: the date listed {written} is not a real date; write it as YYYY-MM-DD"
    ]


def test_815a4_a_date_of_birth_or_date_listed_in_the_future_is_refused():
    assert problems_of(
        "Doe,John,,2026-05-02,,2026-05-01,life", "Roe,Jane,,1975-06-07,,2026-05-02,life"
    ) == [
        "line 2: the date of birth 2026-05-02 is in the future (today is 2026-05-01)",
        "line 3: the date listed 2026-05-02 is in the future (today is 2026-05-01)",
    ]


def test_815a4_a_date_of_birth_after_the_date_listed_is_refused():
    assert problems_of("Doe,John,,2001-01-02,,2001-01-01,life") == [
        "line 2: the date of birth 2001-01-02 is after the date listed 2001-01-01; "
        "nobody is listed before they are born"
    ]


@pytest.mark.parametrize("written", ["123", "12345", "12a4", "１２３４", "12 34"])
def test_815a4_ssn_digits_that_are_not_four_digits_are_refused(written):
    assert problems_of(f'Doe,John,,1980-01-02,"{written}",2024-03-04,life') == [
        "line 2: the last four digits of the Social Security number must be exactly four "
        "digits, or left empty"
    ]


def test_815a4_the_ssn_digits_are_never_repeated_in_a_refusal():
    problems = problems_of("Doe,John,,1980-01-02,98765,2024-03-04,life")
    assert "98765" not in "\n".join(problems)


@pytest.mark.parametrize(
    ("written", "period"),
    [("1 year", Period.ONE_YEAR), ("5 YEARS", Period.FIVE_YEARS), ("  Life ", Period.LIFE)],
)
def test_815a4_815a3_c_the_three_periods_read_in_any_case(written, period):
    assert read(f"Doe,John,,1980-01-02,,2024-03-04,{written}").people[0].period is period


@pytest.mark.parametrize("written", ["2 years", "1 years", "1year", "lifetime", "10 years"])
def test_815a4_an_unknown_period_is_refused(written):
    assert problems_of(f"Doe,John,,1980-01-02,,2024-03-04,{written}") == [
        f"line 2: the period '{written}' is not one of 1 year, 5 years or life"
    ]


@pytest.mark.parametrize("written", ["delete", "added", "+", "update"])
def test_815a4_an_unknown_change_is_refused(written):
    assert problems_of(f"{written},{GOOD}", kind=CHANGES) == [
        f"line 2: the change '{written}' is not add or remove"
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (",John,,1980-01-02,,2024-03-04,life", "the surname column is empty"),
        ("Doe, ,,1980-01-02,,2024-03-04,life", "the given names column is empty"),
        (
            "Doe,John,,,,2024-03-04,life",
            "the date of birth column is empty; write the date as YYYY-MM-DD",
        ),
        (
            "Doe,John,,1980-01-02,,,life",
            "the date listed column is empty; write the date as YYYY-MM-DD",
        ),
        (
            "Doe,John,,1980-01-02,,2024-03-04,",
            "the period column is empty; write 1 year, 5 years or life",
        ),
    ],
)
def test_815a4_an_empty_required_field_is_refused(line, message):
    assert problems_of(line) == [f"line 2: {message}"]


def test_815a4_an_empty_change_is_refused():
    assert problems_of(f" ,{GOOD}", kind=CHANGES) == [
        "line 2: the change column is empty; write add or remove"
    ]


def test_815a4_the_same_person_twice_in_one_file_is_refused_naming_both_lines():
    problems = problems_of(
        "O'Brien-Smith,Mary Ann,,1970-03-04,,2020-01-02,life",
        "Roe,Jane,,1975-06-07,,2021-02-03,life",
        "OBRIEN SMITH,mary-ann,Molly,1970-03-04,1234,2022-01-02,1 year",
        "O'Brien-Smith,Mary Ann,,1970-03-05,,2020-01-02,life",  # another date of birth
        "obrien-smith,Mary Ann,,1970-03-04,,2020-01-02,life",
    )
    assert problems == [
        "line 4: it lists the same person as line 2 (the same full name and date of birth); "
        "list each person once in a file",
        "line 6: it lists the same person as line 2 (the same full name and date of birth); "
        "list each person once in a file",
    ]


def test_815a4_an_addition_and_a_removal_of_the_same_person_in_one_file_are_refused():
    problems = problems_of(f"add,{GOOD}", f"remove,{GOOD}", kind=CHANGES)
    assert problems == [
        "line 3: it lists the same person as line 2 (the same full name and date of birth); "
        "list each person once in a file"
    ]


def test_815a4_an_empty_full_edition_is_refused():
    assert refusal(csv_bytes("", " , , , , , , ")) == [
        "the full edition lists nobody: it has the header but no line for a person"
    ]


def test_815a4_an_empty_file_of_additions_and_removals_is_refused():
    assert refusal(csv_bytes(header=CHANGES_HEADER), CHANGES) == [
        "the file of additions and removals changes nothing: it has the header but no line "
        "for a person"
    ]


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf"])
def test_815a4_a_file_without_any_line_is_refused_as_empty(data):
    assert refusal(data) == ["the file is empty: it has neither the header nor any person"]


def test_815a4_names_and_aliases_over_their_limits_are_refused():
    at_limits = ";".join(["B" * 200] * 20)
    assert read(f"{'S' * 100},{'G' * 100},{at_limits},1980-01-02,,2024-03-04,life").people
    problems = problems_of(
        f"{'S' * 101},John,,1980-01-02,,2024-03-04,life",
        f"Doe,{'G' * 101},,1980-01-02,,2024-03-04,life",
        f"Doe,Jane,Jay;{'B' * 201},1980-01-02,,2024-03-04,life",
        f"Doe,Jim,{';'.join(['J'] * 21)},1980-01-02,,2024-03-04,life",
    )
    assert problems == [
        "line 2: the surname column has 101 characters; at most 100 are allowed",
        "line 3: the given names column has 101 characters; at most 100 are allowed",
        "line 4: alias 2 has 201 characters; at most 200 are allowed",
        "line 5: it lists 21 aliases; at most 20 are allowed",
    ]


def test_815a4_a_name_or_alias_without_letters_or_digits_is_refused():
    assert problems_of("-,John,Jay;' .,1980-01-02,,2024-03-04,life") == [
        "line 2: the surname column has no letters or digits, so nobody could be matched on it",
        "line 2: alias 2 has no letters or digits, so nobody could be matched on it",
    ]


def test_815a4_a_line_break_or_control_character_inside_a_value_is_refused():
    problems = problems_of(
        '"Doe\nSmith",John,,1980-01-02,,2024-03-04,life',
        "Roe,Ja\tne,,1975-06-07,,2021-02-03,life",
        "Moe,Al,,1975-06-07,,2021-02-03,2 years",
    )
    assert problems == [
        "line 2: the surname column holds a line break, tab or other invisible control character",
        "line 4: the given names column holds a line break, tab or other invisible control "
        "character",
        "line 5: the period '2 years' is not one of 1 year, 5 years or life",
    ]


def test_815a4_a_long_value_is_shortened_where_a_refusal_repeats_it():
    (problem,) = problems_of(f"Doe,John,,1980-01-02,,2024-03-04,{'x' * 500}")
    assert problem == f"line 2: the period '{'x' * 39}…' is not one of 1 year, 5 years or life"


# The limits on a file's size -----------------------------------------------------------------


def test_815a4_a_file_over_5_mib_is_refused_whole_before_any_line_is_read():
    assert MAX_BYTES == 5 * 1024 * 1024
    too_big = csv_bytes(GOOD) + b"x" * MAX_BYTES
    assert refusal(too_big) == [
        f"the file is {len(too_big):,} bytes; a list file may be at most 5,242,880 bytes (5 MiB)"
    ]


def test_815a4_a_file_of_exactly_5_mib_is_read():
    start = csv_bytes(GOOD)
    row = b" " * 99_999 + b"\n"  # an empty row of spaces, skipped
    padding = row * ((MAX_BYTES - len(start)) // len(row))
    data = start + padding + b" " * (MAX_BYTES - len(start) - len(padding))
    assert len(data) == MAX_BYTES
    assert [p.surname for p in read_list_file(data, kind=FULL, today=TODAY).people] == ["Doe"]
    with pytest.raises(ListFileRefused, match="bytes"):
        read_list_file(data + b" ", kind=FULL, today=TODAY)


def test_815a4_a_file_over_100000_lines_is_refused_whole_and_100000_lines_are_read():
    assert MAX_LINES == 100_000
    at_limit = csv_bytes(GOOD) + b"\n" * (MAX_LINES - 2)  # the header, one person, empty lines
    assert at_limit.count(b"\n") == MAX_LINES
    assert len(read_list_file(at_limit, kind=FULL, today=TODAY).people) == 1
    over = at_limit + b"Roe,Jane,,1975-06-07,,2021-02-03,life"  # line 100,001, unended
    assert refusal(over) == [
        "the file has 100,001 lines; a list file may have at most 100,000 lines, "
        "the header included"
    ]


# The digest -------------------------------------------------------------------------------


def test_815a4_the_digest_is_the_sha256_of_the_files_bytes_and_the_same_each_time():
    data = csv_bytes(GOOD)
    digest = read_list_file(data, kind=FULL, today=TODAY).digest
    assert digest == hashlib.sha256(data).hexdigest()
    assert (
        digest == read_list_file(bytes(data), kind=FULL, today=TODAY + datetime.timedelta(1)).digest
    )
    with_bom = read_list_file(b"\xef\xbb\xbf" + data, kind=FULL, today=TODAY).digest
    crlf = read_list_file(data.replace(b"\n", b"\r\n"), kind=FULL, today=TODAY).digest
    assert len({digest, with_bom, crlf}) == 3  # other bytes, another file


# Names as they are matched (reading:exclusion-list-import) ----------------------------------


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("O'Brien-Smith, Mary Ann", "obriensmithmaryann"),
        ("  mary   ann  o.brien smith ", "maryannobriensmith"),
        ("ＭＡＲＹ　ＤＯＥ", "marydoe"),  # full-width letters and space (NFKC)
        ("MARY DOE", "marydoe"),
        ("Straße", "strasse"),  # case folding, not just lower case
        ("ǅorđe", "džorđe"),  # a ligature letter split by NFKC
        ("José", "josé"),  # accents are letters and stay
        ("Louis XIV (the 14th)", "louisxivthe14th"),
        ("Jean-Luc «J.L.» Picard", "jeanlucjlpicard"),
        ("ﬁona", "fiona"),  # the fi ligature
    ],
)
@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_normalised_names_fold_compatibility_forms_case_and_punctuation(written, key):
    assert normalised_name(written) == key


@pytest.mark.clause("reading:exclusion-list-import", kind="proves")
def test_815a4_a_persons_names_are_the_full_name_then_each_new_alias_in_order():
    person = read(
        "O'Brien-Smith,Mary Ann,\"MARY ANN O'BRIEN SMITH; Molly; ｍｏｌｌｙ; M. A. O'Brien\","
        "1970-03-04,,2020-01-02,life"
    ).people[0]
    assert person.names == ("maryannobriensmith", "molly", "maobrien")
    assert person.surname_key == "obriensmith"


# The module itself --------------------------------------------------------------------------


def test_815a4_every_message_is_in_plain_words_for_the_officer():
    messages = [
        *problems_of(
            ",\t,x;-,1990-02-30,12a,2030-01-01,forever",
            "Doe,John,,1980-01-02,,2024-03-04",
            '"Doe"x',
            "Doe,Jo,,2001-01-02,,2001-01-01,life",
            "Doe,Jo,,2001-01-02,,2001-01-01,life",
            header="surname",
        ),
        *problems_of("delete,Doe,John,,1980-01-02,,2024-03-04,life", kind=CHANGES),
        *refusal(b""),
        *refusal(csv_bytes()),
        *refusal(csv_bytes(GOOD), CHANGES),
        *refusal(b"x" * (MAX_BYTES + 1)),
        *refusal(b"\n" * (MAX_LINES + 1)),
        *refusal(HEADER.encode() + b"\n\xff"),
    ]
    assert len(messages) >= 15
    # The header is what the officer must type, so its column names are shown as written.
    text = "\n".join(messages).replace(HEADER, "the header")
    for rule, pattern in DENIED:
        assert not pattern.search(text), rule
    assert "Error" not in text and "None" not in text and "\\x" not in text


def test_815a4_the_list_file_reader_imports_only_the_standard_library():
    tree = ast.parse(Path(list_file.__file__).read_text())
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_815a4_the_file_the_kind_and_today_must_be_bytes_a_list_kind_and_a_date():
    data = csv_bytes(GOOD)
    with pytest.raises(TypeError, match="from its bytes"):
        read_list_file(data.decode(), kind=FULL, today=TODAY)
    with pytest.raises(TypeError, match="which kind"):
        read_list_file(data, kind="full edition", today=TODAY)
    with pytest.raises(TypeError, match="not a date and time"):
        read_list_file(data, kind=FULL, today=datetime.datetime(2026, 5, 1, 12))
