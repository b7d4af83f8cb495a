"""Players are Django's auth users, administered with Django's own UserAdmin.

django.contrib.auth registers it itself; this module only makes sure it stays so (an
app that unregisters it would otherwise leave admins without a user page).
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

User = get_user_model()

if not admin.site.is_registered(User):
    admin.site.register(User, UserAdmin)
