"""Django's own words that this project says otherwise in Spanish (as "tú", and plainer).

Their Spanish lives in the project's catalogue, which `make messages` rebuilds from what it
finds in the code: named here, they are found, and their translations kept.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# Django's msgids, to the letter: its long lines and its typographic apostrophes.
# ruff: noqa: E501, RUF001

DJANGO_WORDS = (
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."
    ),
    gettext_noop(
        "Enter a valid username. This value may contain only unaccented lowercase a-z and uppercase A-Z letters, numbers, and @/./+/-/_ characters."
    ),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."
    ),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
)
