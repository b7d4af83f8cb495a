from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

# The admin says whose it is (Django's default: "Django administration").
admin.site.site_header = _("Spectacular Bid administration")
admin.site.site_title = _("Spectacular Bid administration")

# A session the database could not save is reported as a 400: pages.database_away's 503.
handler400 = "pages.views.bad_request"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("", include("realtime.urls")),
    path("", include("pages.urls")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
    path("", include("ratings.urls")),
    path("", include("fairplay.urls")),
    path("", include("tournaments.urls")),
]
